package kit

import (
	"encoding/binary"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// Promise is "no deadlock" as the exhaustive checker judges it on runs
// without end: the course chapter's "if processes try, some process
// eventually gets in", that is, while some live node waits for the
// critical section, some node (any) eventually enters it. It is one
// promise to the run as a whole (check.Whole), owed while a live node has
// a request outstanding and kept by any entry. A cycle that keeps it owed
// is a deadlock where nothing can happen, or a livelock: messages keep
// flowing, requests are withdrawn and made again, and nobody ever gets
// in. It says nothing of who enters: one node may starve while others
// keep entering (that is Starvation's promise).
func (*Deadlock) Promise() check.Promise { return &progress{} }

var _ check.Eventually = (*Deadlock)(nil)

// progress follows the live nodes with a request outstanding (bit i-1:
// node i), as check.Owed does for Starvation; its promise is owed while
// that set is not empty.
type progress struct{ waiting uint64 }

var _ check.Whole = (*progress)(nil)

// Observe makes the promise on a request and keeps it on any entry.
func (p *progress) Observe(e *trace.Event) uint64 {
	if e.Node < 1 || e.Node > 64 {
		return 0
	}
	bit := uint64(1) << (e.Node - 1)
	switch {
	case e.Kind == trace.KindCrash:
		p.waiting &^= bit
	case e.Kind == trace.KindEnterCS:
		kept := p.Owed()
		p.waiting &^= bit
		return kept
	case e.Kind == trace.KindCmd && IsRequest(e.Cmd):
		p.waiting |= bit
	}
	return 0
}

// Owed is 1 while a live node waits.
func (p *progress) Owed() uint64 {
	if p.waiting != 0 {
		return 1
	}
	return 0
}

// Wants is requests, entries and crashes.
func (*progress) Wants() trace.Kinds {
	return trace.KindsOf(trace.KindCmd, trace.KindEnterCS, trace.KindCrash)
}

// Clone copies the tracker.
func (p *progress) Clone() check.Promise { c := *p; return &c }

// AppendKey appends the set of waiting nodes.
func (p *progress) AppendKey(b []byte) []byte { return binary.AppendUvarint(b, p.waiting) }

// Unmet is what a cycle that never keeps the promise shows.
func (*progress) Unmet() string {
	return "nodes wait for the critical section and nobody ever enters it"
}
