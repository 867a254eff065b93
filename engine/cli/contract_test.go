package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/trace"
	"ringlab/internal/clitest"
)

// hi is a greeting from node From.
type hi struct{ From int }

func (hi) Type() string { return "HI" }

// sharer: on start, nodes 2 and 3 greet node 1, which records who greeted
// it in got, and enters the critical section if one node greeted it twice
// (no run does). Its Clone shares got, which Step appends to, so clones
// overwrite each other's greetings.
type sharer struct {
	index int
	got   []int
}

func (s *sharer) Step(in node.Input, out *node.Output) {
	switch {
	case in.Kind == node.InCmd && s.index != 1:
		out.Send(1, hi{s.index})
	case in.Kind == node.InMsg:
		s.got = append(s.got, in.Msg.(hi).From)
		if len(s.got) == 2 && s.got[0] == s.got[1] {
			out.EnterCS()
		}
	}
	out.Done = s.index != 1 || len(s.got) == 2
}

func (s *sharer) Clone() node.Node          { c := *s; return &c }
func (s *sharer) AppendKey(b []byte) []byte { return node.AppendInts(b, s.got) }

// never is a property no entry keeps.
type never struct{ in bool }

func (*never) ID() check.ID                     { return "never" }
func (n *never) Finish(check.End) trace.Verdict { return trace.Verdict{Property: "never", OK: !n.in} }
func (n *never) Clone() check.Snapshot          { c := *n; return &c }
func (n *never) AppendKey(b []byte) []byte      { return node.AppendBool(b, n.in) }
func (n *never) Observe(e *trace.Event) string {
	if e.Kind != trace.KindEnterCS {
		return ""
	}
	n.in = true
	return "a node entered"
}

// check meets sharer's broken Clone as a violation of never that its
// path does not replay: it exits 1 with the broken contract and the node
// type, and prints no verdict (on main: exit 3, "VIOLATION of never"
// after c2,c3,d2-1,d3-1, whose replay printed "✓ never").
func TestCheckStopsAtABrokenContract(t *testing.T) {
	alg := engine.Algorithm{
		Name: "sharer",
		Build: func(engine.Params, engine.Env) (engine.System, error) {
			return engine.System{
				Name: "toy sharer", Nodes: 3, Messages: []node.Msg{hi{}},
				Factory: func(i int) (node.Node, error) {
					return &sharer{index: i, got: make([]int, 0, 4)}, nil
				},
				Script:     []node.Action{{Node: 2, Cmd: node.CmdStart}, {Node: 3, Cmd: node.CmdStart}},
				Properties: []check.Property{&never{}},
			}, nil
		},
	}
	area := Area{Name: "toy", Algorithms: []engine.Algorithm{alg}}
	var out, errb bytes.Buffer
	err := clitest.Run(context.Background(), []*ucli.Command{area.Command()}, &out, &errb,
		[]string{"ringlab", "toy", "check", "sharer", "--workers", "1"})
	if code := cliutil.Code(err); code != cliutil.ExitInternal || err == nil ||
		!strings.Contains(err.Error(), "the node contract is broken by *cli.sharer") || strings.Contains(out.String(), "VIOLATION") {
		t.Fatalf("exit %d, err %v\n%s\n%s", code, err, out.String(), errb.String())
	}
}
