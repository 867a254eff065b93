package cli

import (
	"fmt"
	"strings"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// Token checks the demo token ring (a test-only checker): exactly one token exists from the first
// time one is sent until the run ends. It follows messages of type Type:
// a receipt puts a token in the receiver's hands, a send from a node that
// holds none creates one (the first token, or a regenerated one), a drop or
// the holder's crash loses it. It needs the run's send/recv events.
type Token struct {
	Type     string
	held     map[int]int
	inFlight int
	lost     int
	started  bool
	worst    int
	retired  int
}

func (*Token) ID() check.ID { return "no lost token" }

func (t *Token) count() int {
	n := t.inFlight
	for _, h := range t.held {
		n += h
	}
	return n
}

func (t *Token) Observe(e *trace.Event) string {
	if t.held == nil {
		t.held = map[int]int{}
	}
	isTok := e.Msg != nil && e.Msg.Type() == t.Type
	switch {
	case e.Kind == trace.KindSend && isTok:
		if t.held[e.Node] > 0 {
			t.held[e.Node]--
		}
		t.inFlight++
		t.started = true
	case e.Kind == trace.KindRecv && isTok:
		t.inFlight--
		t.held[e.Node]++
	case e.Kind == trace.KindDrop && isTok:
		t.inFlight--
		t.lost++
	case e.Kind == trace.KindDup && isTok:
		t.inFlight++
	case e.Kind == trace.KindCrash:
		t.lost += t.held[e.Node]
		t.held[e.Node] = 0
	case e.Kind == trace.KindNote && strings.HasPrefix(e.Note, "token ") && strings.Contains(e.Note, "retired"):
		if t.held[e.Node] > 0 {
			t.held[e.Node]--
			t.retired++
		}
	}
	if c := t.count(); c > 1 && c > t.worst {
		t.worst = c
		return fmt.Sprintf("%d tokens exist at once (t=%d)", c, e.T)
	}
	return ""
}

func (t *Token) Finish(check.End) trace.Verdict {
	v := trace.Verdict{Property: string(t.ID()), OK: t.worst < 2 && t.lost == 0}
	switch {
	case t.lost > 0:
		v.Detail = fmt.Sprintf("%d token(s) lost (a crashed holder or a dropped message)", t.lost)
	case t.worst > 1:
		v.Detail = fmt.Sprintf("up to %d tokens at once", t.worst)
	}
	return v
}
