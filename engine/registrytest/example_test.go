package registrytest_test

import (
	"fmt"
	"testing"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/registrytest"
)

// Ping is the one message of the example algorithm: the hop it makes.
type Ping struct{ Hop int }

// Type names the message kind.
func (Ping) Type() string { return "PING" }

// pinger passes a ping round a ring of n nodes until it has made hops
// hops; the node told to start sends the first.
type pinger struct{ i, n, hops int }

func (p *pinger) Step(in node.Input, out *node.Output) {
	hop := 1
	if in.Kind == node.InMsg {
		hop = in.Msg.(Ping).Hop + 1
	}
	if hop <= p.hops {
		out.Send(p.i%p.n+1, Ping{Hop: hop})
	}
	out.Done = true
}

// build makes the System of one algorithm from its command-line arguments;
// an area's own build parses them as its commands do.
func build(name string, args []string) (engine.System, error) {
	if name != "ping" || len(args) != 0 {
		return engine.System{}, fmt.Errorf("no algorithm %s %v", name, args)
	}
	return engine.System{
		Name: "ping", Nodes: 3,
		Factory:  func(i int) (node.Node, error) { return &pinger{i: i, n: 3, hops: 6}, nil },
		Messages: []node.Msg{Ping{}}, // the registry Sweep checks
		Script:   []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
	}, nil
}

// Sweep belongs in a test of the package that lists the algorithms: it
// runs each one under many seeds and faults and fails the test unless its
// message registry lists exactly the types its nodes send, each of which
// survives the broker's encoding. It needs the test's *testing.T, so this
// example is compiled but not run.
func ExampleSweep() {
	testRegistries := func(t *testing.T) {
		registrytest.Sweep(t, []string{"ping"}, map[string][][]string{"ping": {{}}}, build)
	}
	_ = testRegistries
}
