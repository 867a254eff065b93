package run

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"ringlab/engine/trace"
)

// Log is a saved run read back from one or more NDJSON files: its events
// in one order that keeps each file's order and puts every send before its
// receive, and what its header and summary lines say about the run.
type Log struct {
	Algorithm string         // "election ring", from the header or the summary
	Replay    string         // the command line that made the run (for node logs: the one-process run of the same nodes)
	Events    []*trace.Event // the events in the order above (nil for a streamed log: see Each)
	Summary   *trace.Summary // nil when no file has a summary line
	Nodes     int            // from the headers (or the summary of a log without one)
	// Origin is the time the run's times count from: 0, or for the logs
	// of node processes (whose times are the wall clock's) the earliest.
	Origin int64

	stream *Source // the one file Each reads, validates and hands over (Events is nil)
	ro     ReadOptions
	read   int // events Each handed over
}

// Each hands every event of the log to f, in order, stopping at f's first
// error. A streamed log (ReadOptions.Stream) is read now, once, and
// validated as it is read: a log that is not a run's history stops it with
// an error naming the line, and ctx done with a *trace.Interrupted error;
// its Summary is known after it.
func (l *Log) Each(ctx context.Context, f func(e *trace.Event) error) error {
	if l.stream == nil {
		for k, e := range l.Events {
			if k%4096 == 0 && ctx.Err() != nil {
				return &trace.Interrupted{Lines: k, What: "events judged", Err: ctx.Err()}
			}
			l.read++
			if err := f(e); err != nil {
				return err
			}
		}
		return nil
	}
	src := l.stream
	l.stream = nil
	lf := &logFile{name: src.Name}
	fl := flight{}
	var budget int64
	err := lf.read(ctx, src.R, &budget, ReadOptions{NodeCommand: l.ro.NodeCommand}, func(e *trace.Event) error {
		if err := fl.step(e); err != nil {
			return err
		}
		l.read++
		return f(e)
	})
	switch {
	case err != nil:
		return err
	case l.read == 0:
		return fmt.Errorf("%s: no events to check", src.Name)
	}
	l.Summary = lf.summary
	return nil
}

// Read is the number of events Each handed over.
func (l *Log) Read() int { return l.read }

// Source is one named log to read.
type Source struct {
	Name string    // the file's name, as errors name it
	R    io.Reader // the NDJSON lines
}

// ReadOptions say how ReadLog reads.
type ReadOptions struct {
	// MaxBytes refuses logs longer than this in all (0: no bound). Reading
	// holds the events in memory, a few times the bytes they take on disk.
	MaxBytes int64
	// Stream leaves a single log with a header to Each, which reads it
	// as it judges it.
	Stream bool
	// NodeCommand reads the command line of a node process (`ringlab
	// node ...`, or any program's `PROG node ...`),
	// whose per-process logs ReadLog merges into the run they made: it
	// returns the one-process command of that run and the node the
	// process ran (nil: such logs name no run ringlab can re-check).
	// ringlab's binary passes cli.NodeLogs; other callers leave it nil.
	NodeCommand func(replay string) (run string, index int, err error)
	// Dialects are other programs' logs (trace.Dialect) it knows, to
	// refuse them by name: they carry no run to judge again.
	Dialects []trace.Dialect
}

// maxLine is the longest first line ReadLog peeks at (trace reads no
// longer line).
const maxLine = 64 << 20

// DefaultMaxLogMiB is the default bound on the size of a log `check` and
// `render` read (their --max-size).
const DefaultMaxLogMiB = 256

// ReadLog reads, validates and merges logs. Each file must be a log this
// build reads: at most one header, on its first line, of this schema
// version; events of known kinds on nodes 1..N; sequence numbers rising and
// each node's Lamport clock rising; every receive after the send of its
// message (and with a later Lamport clock). Several files (one per
// process, say) are merged by their clocks: an event that happened before
// another (by its vector clock where both carry one, else by its Lamport
// clock, then by node) comes first, and a receive never before the send it
// receives. Its errors name the file and the line and say what is wrong.
// A ctx done stops it with a *trace.Interrupted error.
//
// With ro.Stream, one file that opens with its header (as every log ringlab
// writes does) is not read here: Each reads and validates it as it judges
// it, in memory that does not grow with the log, and --max-size does not
// bound it.
func ReadLog(ctx context.Context, ro ReadOptions, srcs ...Source) (*Log, error) {
	if ro.Stream && len(srcs) == 1 {
		left := int64(maxLine) // the first line is held whole: bounded as trace bounds a line
		lim := &budgetReader{r: srcs[0].R, budget: &left, max: left}
		br := bufio.NewReaderSize(lim, 1<<16)
		first, err := br.ReadBytes('\n')
		switch {
		case errors.Is(err, ErrTooLarge):
			return nil, fmt.Errorf("%s: line 1: longer than %d MiB: not a ringlab log line", srcs[0].Name, maxLine>>20)
		case err != nil && err != io.EOF:
			return nil, fmt.Errorf("%s: %v", srcs[0].Name, err)
		}
		lim.max = 0 // the rest is read as it streams, or bounded by MaxBytes below
		src := Source{Name: srcs[0].Name, R: io.MultiReader(bytes.NewReader(first), br)}
		var h trace.Header
		if json.Unmarshal(first, &h) == nil && h.Kind == trace.KindHeader && h.V == trace.Version &&
			h.Replay != "" && !strings.HasPrefix(h.Replay, "ringlab node ") {
			return &Log{Algorithm: h.Algorithm, Replay: h.Replay, Nodes: h.Nodes, stream: &src, ro: ro}, nil
		}
		srcs = []Source{src}
	}
	l := &Log{}
	budget := ro.MaxBytes
	var files []*logFile
	for _, src := range srcs {
		f := &logFile{name: src.Name}
		if err := f.read(ctx, src.R, &budget, ro, nil); err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if err := l.join(files); err != nil {
		return nil, err
	}
	if l.Replay == "" {
		return nil, fmt.Errorf("%s: the log names no command that made it (no replay in a header or summary line)", names(srcs))
	}
	if len(files) == 1 {
		l.Events = files[0].evs
		if err := matchMessages(files, nil); err != nil {
			return nil, err
		}
	} else {
		var order []at
		l.Events, order = merge(files)
		if err := matchMessages(files, order); err != nil {
			return nil, err
		}
	}
	if len(l.Events) == 0 {
		return nil, fmt.Errorf("%s: no events to check", names(srcs))
	}
	return l, nil
}

func names(srcs []Source) string {
	var ns []string
	for _, s := range srcs {
		ns = append(ns, s.Name)
	}
	return strings.Join(ns, ", ")
}

// logFile is one file as read.
type logFile struct {
	name    string
	header  *trace.Header
	summary *trace.Summary
	evs     []*trace.Event
	lines   []int // of evs
	seen    bool  // an event was read
	// a per-process log of `ringlab node`
	node      int    // its node (0: a log of a whole run)
	run       string // the one-process command of its run
	algorithm string
}

// budgetReader fails a read past the budget, which all files share.
type budgetReader struct {
	r      io.Reader
	budget *int64
	max    int64
}

// ErrTooLarge is the error of a read past a log's size budget.
var ErrTooLarge = errors.New("too large")

// Limit returns r, failing with ErrTooLarge once it has given more than
// max bytes (max <= 0: no limit).
func Limit(r io.Reader, max int64) io.Reader {
	b := max
	return &budgetReader{r: r, budget: &b, max: max}
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if b.max <= 0 {
		return b.r.Read(p)
	}
	if *b.budget < 0 {
		return 0, ErrTooLarge
	}
	n, err := b.r.Read(p)
	*b.budget -= int64(n)
	if *b.budget < 0 {
		return n, ErrTooLarge
	}
	return n, err
}

// read reads and validates one file; keep takes each valid event (nil:
// the file keeps them, with their lines).
func (f *logFile) read(ctx context.Context, r io.Reader, budget *int64, ro ReadOptions, keep func(e *trace.Event) error) error {
	keepLines := keep == nil // a streamed file keeps no lines
	if keep == nil {
		keep = func(e *trace.Event) error { f.evs = append(f.evs, e); return nil }
	}
	lastSeq, seqLine := int64(-1), 0
	lastLC := map[int]int64{}
	empty := true
	err := trace.ReadLog(&budgetReader{r: r, budget: budget, max: ro.MaxBytes}, trace.Handlers{
		Context:  ctx,
		Dialects: ro.Dialects,
		InDialect: func(d *trace.Dialect) error {
			return fmt.Errorf("a log of %s, which has no checkers to run again", d.Source)
		},
		Header: func(h *trace.Header) error {
			empty = false
			switch {
			case f.header != nil:
				return fmt.Errorf("a second header: one file holds the log of one run (or of one process)")
			case f.seen || f.summary != nil:
				return fmt.Errorf("a header after the first event: a header opens a log")
			}
			f.header = h
			return f.readHeader(h, ro.NodeCommand)
		},
		EventAt: func(e *trace.Event, line int) error {
			empty = false
			if f.summary != nil {
				return fmt.Errorf("an event after the summary line, which ends a log")
			}
			if e.Kind == trace.KindViolation { // the checkers find their own
				return nil
			}
			if !trace.KnownKind(e.Kind) {
				return fmt.Errorf("unknown event kind %q (want one of %s)", e.Kind, strings.Join(trace.EventKinds(), ", "))
			}
			if err := f.inRange(e); err != nil {
				return err
			}
			if e.Seq <= lastSeq {
				return fmt.Errorf("sequence number %d after %d (line %d): the events are out of order", e.Seq, lastSeq, seqLine)
			}
			lastSeq, seqLine = e.Seq, line
			// a drop or duplicate is the network's: it carries the node's
			// clock without moving it
			network := e.Kind == trace.KindDrop || e.Kind == trace.KindDup
			if lc, ok := lastLC[e.Node]; ok && (e.LC < lc || e.LC == lc && !network) {
				return fmt.Errorf("%s's Lamport clock %d after %d: the events are out of order", f.nodeName(e.Node), e.LC, lc)
			}
			lastLC[e.Node] = e.LC
			if err := keep(e); err != nil {
				return err
			}
			if keepLines {
				f.lines = append(f.lines, line)
			}
			f.seen = true
			return nil
		},
		Summary: func(s *trace.Summary) error {
			empty = false
			if f.summary != nil {
				return fmt.Errorf("a second summary line")
			}
			f.summary = s
			return nil
		},
	})
	var in *trace.Interrupted
	switch {
	case errors.As(err, &in):
		return fmt.Errorf("%s: %w", f.name, err)
	case errors.Is(err, ErrTooLarge):
		return fmt.Errorf("%s: the logs are larger than --max-size %d MiB (reading takes a few times that in memory); raise --max-size if this machine has room", f.name, ro.MaxBytes>>20)
	case err != nil:
		return fmt.Errorf("%s: %v", f.name, err)
	case empty:
		return fmt.Errorf("%s: the log is empty", f.name)
	}
	if f.header == nil {
		if f.summary == nil {
			return nil // ReadLog says the log names no command
		}
		if s := f.summary; s.Nodes > 0 { // a log without a header: its summary names the nodes
			if err := f.checkNodes(s.Nodes); err != nil {
				return err
			}
		}
	}
	if f.summary != nil && f.run == "" && f.header != nil && f.summary.Replay != f.header.Replay {
		return fmt.Errorf("%s: the summary names the run %q, the header %q", f.name, f.summary.Replay, f.header.Replay)
	}
	return nil
}

// nodes is the number of nodes the file's header names (0: no header).
func (f *logFile) nodes() int {
	if f.header == nil {
		return 0
	}
	return f.header.Nodes
}

func (f *logFile) nodeName(i int) string {
	if f.header == nil {
		return trace.DefaultName(i)
	}
	return f.header.Label(i)
}

// inRange checks an event's nodes against the header's count (a log
// without a header is checked at its summary) and a per-process log's
// events against its node.
func (f *logFile) inRange(e *trace.Event) error {
	n := f.nodes()
	if n == 0 {
		n = trace.MaxNodes
	}
	bad := func(what string, i int) error {
		return fmt.Errorf("a %s event with %s %d: the run's nodes are 1..%d", e.Kind, what, i, n)
	}
	if e.Node < 1 || e.Node > n {
		return bad("node", e.Node)
	}
	switch e.Kind {
	case trace.KindSend, trace.KindRecv, trace.KindDrop, trace.KindDup:
		if e.From < 1 || e.From > n {
			return bad("from", e.From)
		}
		if e.To < 1 || e.To > n {
			return bad("to", e.To)
		}
		if e.Msg == nil {
			return fmt.Errorf("a %s event without its message", e.Kind)
		}
	}
	switch {
	case e.Kind == trace.KindSend && e.Node != e.From:
		return fmt.Errorf("a send from %d logged at node %d: a send happens at its sender", e.From, e.Node)
	case e.Kind == trace.KindRecv && e.Node != e.To:
		return fmt.Errorf("a receive by %d logged at node %d: a receive happens at its receiver", e.To, e.Node)
	case f.node != 0 && e.Node != f.node:
		return fmt.Errorf("an event of node %d in the log of node %d's process", e.Node, f.node)
	case len(e.VC) > 0 && f.nodes() > 0 && len(e.VC) != f.nodes():
		return fmt.Errorf("a vector clock of %d entries in a run of %d nodes", len(e.VC), f.nodes())
	}
	return nil
}

// checkNodes checks the events read so far against n nodes (a log whose
// count comes from its summary, at its end).
func (f *logFile) checkNodes(n int) error {
	for k, e := range f.evs {
		if max(e.Node, e.From, e.To) > n {
			return fmt.Errorf("%s: line %d: a %s event at node %d, from %d, to %d: the run's nodes are 1..%d", f.name, f.lines[k], e.Kind, e.Node, e.From, e.To, n)
		}
	}
	return nil
}

// readHeader reads what a header says of the run; a `ringlab node`
// command line is turned into the one-process command of the same run.
func (f *logFile) readHeader(h *trace.Header, nodeCommand func(string) (string, int, error)) error {
	if h.Nodes < 1 {
		return fmt.Errorf("a header with %d nodes", h.Nodes)
	}
	f.algorithm = h.Algorithm
	if _, rest, _ := strings.Cut(h.Replay, " "); !strings.HasPrefix(rest, "node ") { // "PROG node ...": any program's node process
		return nil
	}
	if nodeCommand == nil {
		return fmt.Errorf("the header's command %q: this command does not read node logs", h.Replay)
	}
	run, index, err := nodeCommand(h.Replay)
	if err != nil {
		return fmt.Errorf("the header's command %q: %v", h.Replay, err)
	}
	if index < 1 || index > h.Nodes {
		return fmt.Errorf("the header's command runs node %d of %d", index, h.Nodes)
	}
	f.node, f.run = index, run
	return nil
}

// join checks that the files are the logs of one run and records it.
func (l *Log) join(files []*logFile) error {
	byNode := map[int]*logFile{}
	var first *logFile
	for _, f := range files {
		if f.header == nil && f.summary == nil {
			continue
		}
		algorithm, replay, nodes := f.algorithm, f.run, f.nodes()
		if f.header == nil {
			algorithm, nodes = f.summary.Algorithm, f.summary.Nodes
		}
		if replay == "" {
			if f.header != nil {
				replay = f.header.Replay
			} else {
				replay = f.summary.Replay
			}
		}
		if f.node != 0 {
			if g := byNode[f.node]; g != nil {
				return fmt.Errorf("%s: a second log of node %d's process (the first is %s): logs of different runs", f.name, f.node, g.name)
			}
			byNode[f.node] = f
		}
		if first == nil {
			first = f
			l.Algorithm, l.Replay, l.Nodes = algorithm, replay, nodes
		} else {
			switch {
			case (f.node == 0) != (first.node == 0):
				return fmt.Errorf("%s: a log of one node's process mixed with %s, a log of a whole run", f.name, first.name)
			case algorithm != l.Algorithm:
				return fmt.Errorf("%s: a log of %q mixed with one of %q (%s): logs of different runs", f.name, algorithm, l.Algorithm, first.name)
			case replay != l.Replay || nodes != l.Nodes:
				return fmt.Errorf("%s: a log of the run %q mixed with one of %q (%s): logs of different runs", f.name, replay, l.Replay, first.name)
			}
		}
		if f.summary != nil {
			if l.Summary != nil {
				return fmt.Errorf("%s: a second summary (the first is in another file): one process judges a run", f.name)
			}
			l.Summary = f.summary
		}
	}
	if first != nil && first.node != 0 {
		var missing []string
		for i := 1; i <= l.Nodes; i++ {
			if byNode[i] == nil {
				missing = append(missing, fmt.Sprint(i))
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("%s: the logs of single processes of a run of %d nodes, without those of node(s) %s: give every process's --events file (--from once for each)",
				first.name, l.Nodes, strings.Join(missing, ", "))
		}
		l.Replay = withInitiators(l.Replay, files)
		l.Origin = math.MaxInt64
		for _, f := range files {
			if len(f.evs) > 0 {
				l.Origin = min(l.Origin, f.evs[0].T)
			}
		}
	}
	return nil
}

// withInitiators adds to an election's one-process command the nodes that
// started it in the node logs (their start commands): the processes'
// command lines do not all say it.
func withInitiators(run string, files []*logFile) string {
	if !strings.HasPrefix(run, "ringlab election ") {
		return run
	}
	var starters []string
	for _, f := range files {
		for _, e := range f.evs {
			if e.Kind == trace.KindCmd && e.Cmd == "start" {
				starters = append(starters, fmt.Sprint(e.Node))
				break
			}
		}
	}
	if len(starters) == 0 {
		return run
	}
	slices.Sort(starters)
	return run + " --initiators " + strings.Join(starters, ",")
}

// msgKey identifies a message on a link for matching receives to sends.
type msgKey struct {
	from, to int
	msg      string
}

func keyOf(e *trace.Event) msgKey {
	k := msgKey{from: e.From, to: e.To}
	if e.Msg != nil {
		b, _ := e.Msg.MarshalJSON()
		k.msg = string(b)
	}
	return k
}

// at is an event's place: its file and its index there.
type at struct{ file, k int }

// flight is the messages sent and not yet received, by link and content:
// the Lamport clocks of their sends, oldest first.
type flight map[msgKey][]int64

// step takes the next event of the history: a receive must come after a
// send of its message not yet received (a duplicate counts as one more
// send), with a later Lamport clock.
func (fl flight) step(e *trace.Event) error {
	switch e.Kind {
	case trace.KindSend:
		k := keyOf(e)
		fl[k] = append(fl[k], e.LC)
	case trace.KindDup:
		k := keyOf(e)
		if q := fl[k]; len(q) > 0 {
			fl[k] = append(q, q[0])
		}
	case trace.KindDrop:
		k := keyOf(e)
		if q := fl[k]; len(q) > 0 {
			fl[k] = q[1:]
		}
	case trace.KindRecv:
		k := keyOf(e)
		q := fl[k]
		if len(q) == 0 {
			return fmt.Errorf("node %d receives %s from node %d, which no log shows sent before: the events are out of order, or the send is in a log not given",
				e.To, e.Msg.Type(), e.From)
		}
		if e.LC <= q[0] {
			return fmt.Errorf("node %d receives %s at Lamport clock %d, not after its send at %d: the events are out of order",
				e.To, e.Msg.Type(), e.LC, q[0])
		}
		if len(q) == 1 {
			delete(fl, k)
		} else {
			fl[k] = q[1:]
		}
	}
	return nil
}

// matchMessages checks the messages (flight.step) in the merged order
// (nil: the one file's).
func matchMessages(files []*logFile, order []at) error {
	if order == nil {
		for k := range files[0].evs {
			order = append(order, at{0, k})
		}
	}
	fl := flight{}
	for _, p := range order {
		f := files[p.file]
		if err := fl.step(f.evs[p.k]); err != nil {
			return fmt.Errorf("%s: line %d: %v", f.name, f.lines[p.k], err)
		}
	}
	return nil
}

// merge interleaves several files' events, each file's in its own order,
// and returns them with each one's place. Of the files' next events it
// takes one that no other next event happened before (vector clocks), that
// is not a receive whose send is still to come, and of those the lowest
// Lamport clock, then the lowest node, then the first file.
func merge(files []*logFile) ([]*trace.Event, []at) {
	sends := map[msgKey]int{} // sends not yet taken
	total := 0
	for _, f := range files {
		total += len(f.evs)
		for _, e := range f.evs {
			if e.Kind == trace.KindSend {
				sends[keyOf(e)]++
			}
		}
	}
	sent := map[msgKey]int{} // sent minus received, of those taken
	next := make([]int, len(files))
	out := make([]*trace.Event, 0, total)
	order := make([]at, 0, total)
	for {
		best := -1
		for pass := 0; pass < 2 && best < 0; pass++ { // pass 1: ignore the send rule
			for i, f := range files {
				if next[i] == len(f.evs) {
					continue
				}
				e := f.evs[next[i]]
				if pass == 0 && e.Kind == trace.KindRecv {
					k := keyOf(e)
					if sent[k] <= 0 && sends[k] > 0 {
						continue // its send is still in another file
					}
				}
				if best < 0 || before(e, files[best].evs[next[best]]) {
					best = i
				}
			}
		}
		if best < 0 {
			return out, order
		}
		e := files[best].evs[next[best]]
		order = append(order, at{best, next[best]})
		next[best]++
		switch e.Kind {
		case trace.KindSend:
			sends[keyOf(e)]--
			sent[keyOf(e)]++
		case trace.KindRecv:
			sent[keyOf(e)]--
		}
		out = append(out, e)
	}
}

// before orders two files' next events: happened-before where both carry
// vector clocks, else the lower Lamport clock, then the lower node.
func before(a, b *trace.Event) bool {
	if len(a.VC) > 0 && len(a.VC) == len(b.VC) && !slices.Equal(a.VC, b.VC) {
		le, ge := true, true
		for i := range a.VC {
			le = le && a.VC[i] <= b.VC[i]
			ge = ge && a.VC[i] >= b.VC[i]
		}
		if le {
			return true
		}
		if ge {
			return false
		}
	}
	if a.LC != b.LC {
		return a.LC < b.LC
	}
	return a.Node < b.Node
}
