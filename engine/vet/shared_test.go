package vet_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/vet"
)

// tally counts the pings it got from each peer in a slice it declares
// shared (`ringlab:"shared"`): the derived copy shares it, so Step must
// replace it, never write into it. inPlace breaks that promise.
type tally struct {
	inPlace bool  `ringlab:"fixed"`
	got     []int `ringlab:"shared"`
}

func (t *tally) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		out.Send(2, Ping{N: 1})
	case node.InMsg:
		if !t.inPlace {
			t.got = slices.Clone(t.got)
		}
		t.got[in.From-1]++
		if t.got[in.From-1] < 2 {
			out.Send(in.From, Ping{N: 1})
		}
	}
}

func tallyAlgorithm(inPlace bool) engine.Algorithm {
	return engine.Algorithm{
		Name: "tally",
		Build: func(engine.Params, engine.Env) (engine.System, error) {
			return engine.System{
				Name: "tally", Nodes: 2,
				Factory:  func(int) (node.Node, error) { return &tally{inPlace: inPlace, got: make([]int, 2)}, nil },
				Messages: []node.Msg{Ping{}},
				Script:   []node.Action{{Node: 1, Cmd: node.CmdStart}},
			}, nil
		},
	}
}

// TestSharedFieldWrittenInPlaceIsCaught: a field declared shared is
// shared by the derived copy, and a Step that writes into it is a clone
// finding that names the field; one that replaces it has none.
func TestSharedFieldWrittenInPlaceIsCaught(t *testing.T) {
	for _, inPlace := range []bool{false, true} {
		a := tallyAlgorithm(inPlace)
		r, err := vet.Run(context.Background(), a, a.Defaults(), vet.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var clone []string
		for _, f := range r.Findings {
			if f.Check == vet.CheckClone {
				clone = append(clone, f.String())
			}
		}
		switch {
		case !inPlace && len(r.Findings) > 0:
			t.Errorf("a Step that replaces its shared slice: findings %v, want none", r.Findings)
		case inPlace && (len(clone) == 0 || !strings.Contains(clone[0], "field got")):
			t.Errorf("a Step that writes into its shared slice: clone findings %v, want one naming field got", clone)
		}
	}
}
