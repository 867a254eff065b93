package kit_test

import (
	"fmt"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/mutex/kit"
)

// walker is a node of a token that goes for a walk: node 1 holds the
// TOKEN and, each time it leaves the critical section, sends it to node 2,
// which sends it straight back. Node 1 waits for it with a timer: under
// --timers quiet a timer fires only when no message is in flight, and
// node 2 never keeps the token, so a timer that fires means the token was
// lost on the way (a drop, or node 2 crashed), and node 1 makes a new one:
// there is never a second.
type walker struct {
	id   int
	has  bool // node 1: it holds the token
	want bool // node 1: it asked and is not in yet
	gen  int  // node 1: the tokens it made after the first
}

// walk is the TOKEN, named by its generation.
type walk struct{ Gen int }

func (walk) Type() string { return "TOKEN" }

// TokenID names the token, as "one token" follows it.
func (m walk) TokenID() string { return fmt.Sprintf("1.%d", m.Gen) }

func (w *walker) Step(in node.Input, out *node.Output) {
	if w.id != 1 {
		if in.Kind == node.InMsg {
			out.Send(1, in.Msg)
		}
		return
	}
	switch {
	case in.Kind == node.InCmd && in.Cmd == node.CmdStart:
		w.has = true
		out.Note("token 1.0 created")
	case in.Kind == node.InCmd && in.Cmd == node.CmdRequest:
		w.want = true
	case in.Kind == node.InCmd && in.Cmd == node.CmdRelease:
		out.ExitCS()
		w.has = false
		out.Send(2, walk{w.gen})
		out.SetTimer(1, 5)
	case in.Kind == node.InMsg:
		w.has = true
		out.StopTimer(1)
	case in.Kind == node.InTick:
		w.gen++
		w.has = true
		out.Note("token 1.%d regenerated: the walk took too long", w.gen)
	}
	if w.has && w.want {
		w.want = false
		out.EnterCS()
	}
}

// walkAlgorithm is the walker's algorithm; with regen the kit also asks,
// of a check without end, that eventually one token is left.
func walkAlgorithm(regen bool) engine.Algorithm {
	return kit.Spec{Name: "walk", Usage: "a token that walks", NodesUsage: "nodes",
		Plan: func(_ engine.Params, n, _ int) (kit.Plan, error) {
			return kit.Plan{Kind: kit.Token, Nodes: n, Messages: []node.Msg{walk{}}, Requesters: []int{1}, Regen: regen,
				Start:   []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
				Factory: func(i int) (node.Node, error) { return &walker{id: i}, nil }}, nil
		}}.Algorithm()
}

// A token lost by the network, or with a node that crashed, is gone from
// the states the checker carries too: the walker's new token is the only
// one, whether the old one was dropped on a link, sent to a node that
// crashed for good, or on its way to one that crashes (and comes back);
// and the promise of eventually one token, kept when the new token is
// made, is not owed again for the lost one.
func TestALostTokenIsNotCountedInFlight(t *testing.T) {
	for _, c := range []struct {
		regen  bool
		args   string
		proved string
	}{
		{false, "--requests 2 --drops 1", "proved: mutual exclusion, one token, grant order"},
		{false, "--requests 2 --crashes 1", "proved: mutual exclusion, one token, grant order"},
		{false, "--requests 2 --crashes 1 --restarts 1", "proved: mutual exclusion, one token, grant order"},
		{true, "--requests 0 --drops 1 --liveness", "proved: mutual exclusion, one token, grant order, no deadlock, no starvation, eventually one token, over all 15 states and every fair cycle"},
	} {
		args := append([]string{"check", "walk", "--nodes", "2", "--timers", "quiet"}, strings.Fields(c.args)...)
		code, out := command(t, walkAlgorithm(c.regen), args...)
		if code != cliutil.ExitOK || !strings.Contains(out, c.proved) {
			t.Errorf("%s: exit %d, want 0\n%s", c.args, code, out)
		}
	}
}
