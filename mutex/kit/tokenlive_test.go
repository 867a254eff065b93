package kit

import (
	"testing"

	"ringlab/engine/check"
	"ringlab/engine/trace"
	"ringlab/mutex/tokenring"
)

// TokenEventually's promise counts tokens without telling them apart:
// owed before the first token is created, kept when it is, owed again
// when it is lost on a link or a second one is regenerated, kept when the
// count is one again (the surplus retired); where a run ends, more than
// one token fails.
func TestTokenEventuallyCounts(t *testing.T) {
	tok := func(gen int) *trace.Msg { return trace.WrapMsg(tokenring.Msg{Origin: 1, Gen: gen}) }
	te := &TokenEventually{Type: tokenring.Msg{}.Type()}
	p := te.Promise()
	if p.Owed() != 1 {
		t.Errorf("before the first token: owed %b", p.Owed())
	}
	for k, step := range []struct {
		e          trace.Event
		kept, owed uint64
	}{
		{trace.Event{Kind: trace.KindNote, Node: 1, Note: "token 1.0 created"}, 1, 0},
		{trace.Event{Kind: trace.KindSend, Node: 1, Msg: tok(0)}, 0, 0},
		{trace.Event{Kind: trace.KindDrop, Node: 2, Msg: tok(0)}, 0, 1},
		{trace.Event{Kind: trace.KindNote, Node: 3, Note: "token 3.1 regenerated: no token seen for 5 ticks"}, 1, 0},
		{trace.Event{Kind: trace.KindNote, Node: 2, Note: "token 2.1 regenerated: no token seen for 5 ticks"}, 0, 1},
		{trace.Event{Kind: trace.KindSend, Node: 2, Msg: tok(1)}, 0, 1},
		{trace.Event{Kind: trace.KindRecv, Node: 3, Msg: tok(1)}, 0, 1},
		{trace.Event{Kind: trace.KindCrash, Node: 3}, 0, 1}, // both tokens lost with their holder
		{trace.Event{Kind: trace.KindNote, Node: 1, Note: "token 1.1 regenerated: no token seen for 5 ticks"}, 1, 0},
	} {
		e := step.e
		te.Observe(&e)
		if kept, owed := p.Observe(&e), p.Owed(); kept != step.kept || owed != step.owed {
			t.Errorf("step %d (%s %s): kept %b owed %b, want %b %b", k, e.Kind, e.Note, kept, owed, step.kept, step.owed)
		}
	}
	if v := te.Finish(check.End{Terminated: true}); !v.OK {
		t.Errorf("one token left: %+v", v)
	}
	two := trace.Event{Kind: trace.KindNote, Node: 2, Note: "token 2.2 regenerated: x"}
	te.Observe(&two)
	if v := te.Finish(check.End{Terminated: true}); v.OK || v.Detail != "2 token(s) at the end" {
		t.Errorf("two tokens left: %+v", v)
	}
}
