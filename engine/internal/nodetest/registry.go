package nodetest

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Sent records one sent value of every message type a run's send events
// carry, for the test that an algorithm's message registry is complete.
type Sent map[string]node.Msg

// Observe records e's message if e is a send.
func (s Sent) Observe(e *trace.Event) {
	if e.Kind != trace.KindSend || e.Msg == nil || e.Msg.Value == nil {
		return
	}
	if _, ok := s[e.Msg.Value.Type()]; !ok {
		s[e.Msg.Value.Type()] = e.Msg.Value
	}
}

// CheckRegistry fails t unless registry holds exactly the types sent: one
// value of each, of the Go type the nodes send under that type name. A
// sent type the registry lacks is a message a node process could not
// decode; a registered type never sent means the runs did not reach every
// path (or the entry is stale), so the sweep proves nothing about it.
func CheckRegistry(t testing.TB, name string, registry []node.Msg, sent Sent) {
	t.Helper()
	reg := map[string]node.Msg{}
	for _, m := range registry {
		if _, dup := reg[m.Type()]; dup {
			t.Errorf("%s: the registry lists %s twice", name, m.Type())
		}
		reg[m.Type()] = m
	}
	for _, typ := range sortedKeys(sent) {
		r, ok := reg[typ]
		switch {
		case !ok:
			t.Errorf("%s: sends %s (%T), which its registry does not list", name, typ, sent[typ])
		case reflect.TypeOf(r) != reflect.TypeOf(sent[typ]):
			t.Errorf("%s: sends %s as %T, its registry lists a %T", name, typ, sent[typ], r)
		}
	}
	for _, typ := range sortedKeys(reg) {
		if _, ok := sent[typ]; !ok {
			t.Errorf("%s: the registry lists %s, which no run of the sweep sent", name, typ)
		}
	}
}

func sortedKeys(m map[string]node.Msg) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Faults returns the crashes and restarts of one run of a fault sweep,
// drawn from seed for n nodes: up to two nodes crash in the first 60
// ticks, and most come back with amnesia some ticks later.
func Faults(seed uint64, n int) []node.Action {
	rng := rand.New(rand.NewPCG(seed, 0x72656769)) // "regi"
	var acts []node.Action
	for range rng.IntN(3) {
		i, at := 1+rng.IntN(n), rng.Int64N(60)
		acts = append(acts, node.Action{At: at, Node: i, Cmd: node.CmdCrash})
		if rng.IntN(4) > 0 {
			acts = append(acts, node.Action{At: at + 1 + rng.Int64N(60), Node: i, Cmd: node.CmdRestart})
		}
	}
	return acts
}
