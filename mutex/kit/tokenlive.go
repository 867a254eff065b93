package kit

import (
	"fmt"

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
	c    tokens
}

// ID names the property.
func (*TokenEventually) ID() check.ID { return IDOneTokenEventually }

// Observe counts the tokens.
func (t *TokenEventually) Observe(e *trace.Event) string { t.c.observe(e, t.Type); return "" }

// Finish judges the end state.
func (t *TokenEventually) Finish(check.End) trace.Verdict {
	n := len(t.c.copies)
	v := trace.Verdict{Property: string(t.ID()), OK: n <= 1}
	v.Detail = fmt.Sprintf("%d token(s) at the end", n)
	return v
}

// Promise is the property as the exhaustive checker judges it.
func (t *TokenEventually) Promise() check.Promise { return &tokenPromise{typ: t.Type} }

var _ check.Eventually = (*TokenEventually)(nil)

// tokenPromise owes one promise (bit 0) while the count is not one.
type tokenPromise struct {
	typ string
	c   tokens
}

func (p *tokenPromise) Observe(e *trace.Event) uint64 {
	was := len(p.c.copies) == 1
	p.c.observe(e, p.typ)
	if !was && len(p.c.copies) == 1 {
		return 1
	}
	return 0
}

func (p *tokenPromise) Owed() uint64 {
	if len(p.c.copies) != 1 {
		return 1
	}
	return 0
}

func (p *tokenPromise) Wants() trace.Kinds {
	return tokenKinds
}

func (p *tokenPromise) Clone() check.Promise {
	c := *p
	c.c = p.c.clone()
	return &c
}

func (p *tokenPromise) AppendKey(b []byte) []byte { return p.c.appendKey(b) }

var _ check.Whole = (*tokenPromise)(nil)

// Unmet is what a cycle that never keeps the promise shows.
func (*tokenPromise) Unmet() string { return "there is never exactly one token" }
