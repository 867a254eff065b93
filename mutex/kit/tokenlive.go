package kit

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// IDOneTokenEventually names TokenEventually.
const IDOneTokenEventually check.ID = "eventually one token"

// TokenEventually is the token ring's liveness promise where lost tokens
// are regenerated: eventually exactly one token exists. It counts the
// tokens (messages of type Type) without telling them apart: held by a
// node (from the notes "token <id> created" and "... regenerated", and a
// receipt) until it sends or retires one, or crashes; in flight until
// delivered, lost or duplicated. Where a run ends it fails if several
// tokens are left; the exhaustive checker judges it on runs without end,
// as one promise (kept as node 1's) owed while there is no token or more
// than one.
type TokenEventually struct {
	Type string // the token message's type
	c    tokenCount
}

// ID names the property.
func (*TokenEventually) ID() check.ID { return IDOneTokenEventually }

// Observe counts the tokens.
func (t *TokenEventually) Observe(e *trace.Event) string { t.c.observe(e, t.Type); return "" }

// Finish judges the end state.
func (t *TokenEventually) Finish(check.End) trace.Verdict {
	v := trace.Verdict{Property: string(t.ID()), OK: t.c.total() <= 1}
	v.Detail = fmt.Sprintf("%d token(s) at the end", t.c.total())
	return v
}

// Promise is the property as the exhaustive checker judges it.
func (t *TokenEventually) Promise() check.Promise { return &tokenPromise{typ: t.Type} }

var _ check.Eventually = (*TokenEventually)(nil)

// tokenCount is the tokens each node holds and those in flight.
type tokenCount struct {
	held   [][2]int // (node, tokens it holds), sorted by node, no zero count
	flight int
}

func (c *tokenCount) total() int {
	n := c.flight
	for _, h := range c.held {
		n += h[1]
	}
	return n
}

func (c *tokenCount) add(i, d int) {
	k, ok := slices.BinarySearchFunc(c.held, i, func(h [2]int, i int) int { return h[0] - i })
	switch {
	case ok:
		c.held[k][1] += d
		if c.held[k][1] <= 0 {
			c.held = slices.Delete(c.held, k, k+1)
		}
	case d > 0:
		c.held = slices.Insert(c.held, k, [2]int{i, d})
	}
}

func (c *tokenCount) observe(e *trace.Event, typ string) {
	isTok := e.Msg != nil && e.Msg.Type() == typ
	switch {
	case e.Kind == trace.KindNote && strings.HasPrefix(e.Note, "token "):
		f := strings.Fields(e.Note)
		if len(f) < 3 {
			break
		}
		switch strings.TrimSuffix(f[2], ":") {
		case "created", "regenerated":
			c.add(e.Node, 1)
		case "retired":
			c.add(e.Node, -1)
		}
	case e.Kind == trace.KindSend && isTok:
		c.add(e.Node, -1)
		c.flight++
	case e.Kind == trace.KindRecv && isTok:
		c.flight--
		c.add(e.Node, 1)
	case e.Kind == trace.KindDrop && isTok:
		c.flight--
	case e.Kind == trace.KindDup && isTok:
		c.flight++
	case e.Kind == trace.KindCrash:
		c.add(e.Node, -1<<30)
	}
}

// tokenPromise owes one promise (bit 0) while the count is not one.
type tokenPromise struct {
	typ string
	c   tokenCount
}

func (p *tokenPromise) Observe(e *trace.Event) uint64 {
	was := p.c.total() == 1
	p.c.observe(e, p.typ)
	if !was && p.c.total() == 1 {
		return 1
	}
	return 0
}

func (p *tokenPromise) Owed() uint64 {
	if p.c.total() != 1 {
		return 1
	}
	return 0
}

func (p *tokenPromise) Wants() trace.Kinds {
	return trace.KindsOf(trace.KindNote, trace.KindSend, trace.KindRecv, trace.KindDrop, trace.KindDup, trace.KindCrash)
}

func (p *tokenPromise) Clone() check.Promise {
	c := *p
	c.c.held = slices.Clone(p.c.held)
	return &c
}

func (p *tokenPromise) AppendKey(b []byte) []byte {
	b = binary.AppendVarint(b, int64(p.c.flight))
	b = binary.AppendUvarint(b, uint64(len(p.c.held)))
	for _, h := range p.c.held {
		b = binary.AppendUvarint(binary.AppendUvarint(b, uint64(h[0])), uint64(h[1]))
	}
	return b
}

var _ check.Whole = (*tokenPromise)(nil)

// Unmet is what a cycle that never keeps the promise shows.
func (*tokenPromise) Unmet() string { return "there is never exactly one token" }
