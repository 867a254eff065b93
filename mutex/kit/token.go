package kit

import (
	"fmt"
	"slices"
	"strings"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// OneToken checks a token ring: at most one token exists at any
// time. It follows each token by its id — the message's TokenID() ("1.0",
// tokenring.Msg) — from
// the notes "token <id> created", "token <id> regenerated: ..." and "token
// <id> retired: ..." and the send/recv/drop/dup events of messages of type
// Type. A crashed holder or a message to a crashed node loses a token: that
// is reported, but it is a liveness matter (judged by Deadlock and
// Starvation), not a second token.
type OneToken struct {
	check.Times
	Type string // the token message's type

	held   map[int]map[string]int // node -> token id -> copies
	flight map[string]int         // token id -> copies in flight
	worst  int
	lost   int
	regens int
}

// ID names the checked property.
func (*OneToken) ID() check.ID { return IDOneToken }

// Observe moves tokens around and reports a second one.
func (o *OneToken) Observe(e *trace.Event) string {
	if o.held == nil {
		o.held, o.flight = map[int]map[string]int{}, map[string]int{}
	}
	isTok := e.Msg != nil && e.Msg.Type() == o.Type
	switch {
	case e.Kind == trace.KindNote && strings.HasPrefix(e.Note, "token "):
		f := strings.Fields(e.Note)
		if len(f) < 3 {
			break
		}
		switch strings.TrimSuffix(f[2], ":") {
		case "created":
			o.take(e.Node, f[1])
		case "regenerated":
			o.regens++
			o.take(e.Node, f[1])
		case "retired":
			o.give(e.Node, f[1])
		}
	case e.Kind == trace.KindSend && isTok:
		o.give(e.Node, tokenID(e.Msg))
		o.flight[tokenID(e.Msg)]++
	case e.Kind == trace.KindRecv && isTok:
		o.flight[tokenID(e.Msg)]--
		o.take(e.Node, tokenID(e.Msg))
	case e.Kind == trace.KindDrop && isTok:
		o.flight[tokenID(e.Msg)]--
		o.lost++
	case e.Kind == trace.KindDup && isTok:
		o.flight[tokenID(e.Msg)]++
	case e.Kind == trace.KindCrash:
		for _, c := range o.held[e.Node] {
			o.lost += c
		}
		delete(o.held, e.Node)
	}
	ids := o.live()
	if len(ids) > 1 && len(ids) > o.worst {
		o.worst = len(ids)
		return fmt.Sprintf("%d tokens exist at once: %s (t=%s)", len(ids), strings.Join(ids, " and "), o.Time(e.T))
	}
	return ""
}

func (o *OneToken) take(i int, id string) {
	if o.held[i] == nil {
		o.held[i] = map[string]int{}
	}
	o.held[i][id]++
}

func (o *OneToken) give(i int, id string) {
	if o.held[i][id] > 0 {
		o.held[i][id]--
	}
}

// live lists the tokens that exist, one entry per copy, in order.
func (o *OneToken) live() []string {
	var ids []string
	for id, c := range o.flight {
		for range c {
			ids = append(ids, id)
		}
	}
	for _, h := range o.held {
		for id, c := range h {
			for range c {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	return ids
}

// Finish gives the verdict and the losses and regenerations seen.
func (o *OneToken) Finish(check.End) trace.Verdict {
	v := trace.Verdict{Property: string(o.ID()), OK: o.worst < 2}
	if !v.OK {
		v.Detail = fmt.Sprintf("up to %d tokens at once", o.worst)
	}
	if o.lost > 0 || o.regens > 0 {
		v.Detail = strings.TrimPrefix(v.Detail+fmt.Sprintf("; %d token(s) lost, %d regenerated", o.lost, o.regens), "; ")
	}
	return v
}

// tokenID names a token by its message's TokenID() ("<origin>.<gen>")
// where it has one, else by its whole value.
func tokenID(m *trace.Msg) string {
	if t, ok := m.Value.(interface{ TokenID() string }); ok {
		return t.TokenID()
	}
	return fmt.Sprintf("%+v", m.Value)
}
