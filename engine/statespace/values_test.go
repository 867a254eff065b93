package statespace_test

import (
	"maps"
	"ringlab/engine"
	"testing"

	"ringlab/engine/node"
	"ringlab/engine/statespace"
)

// pinger keeps a Lamport clock and answers every ball with one of its own
// (node 1 serves first), for ever. The planted bug: tired also compares
// the clock with a constant, stopping once it reaches 4, which breaks the
// contract of the clock it declares (node.Values.Clock).
type pinger struct {
	index, clock int
	tired        bool
}

type ball struct{ T int }

func (ball) Type() string { return "BALL" }

func (b *ball) Values(v *node.Values) { v.Clock(&b.T) }

func (p *pinger) Values(v *node.Values) { v.Clock(&p.clock) }

func (p *pinger) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InMsg {
		p.clock = max(p.clock, in.Msg.(ball).T)
	}
	p.clock++
	if p.tired && p.clock >= 4 {
		return
	}
	out.Send(3-p.index, ball{T: p.clock})
}

func (p *pinger) Clone() node.Node { c := *p; return &c }

func (p *pinger) AppendKey(b []byte) []byte { return node.AppendInt(b, p.clock) }

func pingers(tired bool) statespace.Config {
	return statespace.Config{
		System: engine.System{Nodes: 2, Factory: func(i int) (node.Node, error) { return &pinger{index: i, tired: tired}, nil }, Script: []node.Action{{Node: 1, Cmd: node.CmdStart}}},
	}
}

// The exactness comparison catches a declared clock that a step compares
// with a constant: two states of the full search with the same shift take
// different steps (one stops, its clock being 4), or the full search's
// states, shifted, differ from what the shifted search reaches. The honest
// pingers make the same space either way.
func TestClockComparedWithAConstantIsCaught(t *testing.T) {
	full, shifted, err := statespace.ShiftSpaces(pingers(false), 8, 10_000)
	if err != nil || !maps.Equal(full, shifted) {
		t.Fatalf("honest pingers: full %d states, shifted %d, error %v", len(full), len(shifted), err)
	}
	full, shifted, err = statespace.ShiftSpaces(pingers(true), 8, 10_000)
	if err == nil && maps.Equal(full, shifted) {
		t.Errorf("tired pingers: the spaces agree (%d states): the broken contract went unseen", len(full))
	}
	t.Logf("tired pingers caught: %v", err)
}
