package amqp_test

import (
	"context"
	"fmt"
	"time"

	"ringlab/engine"
	"ringlab/engine/amqp"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Elect and Elected are the messages of the examples.
type (
	Elect   struct{ ID int }
	Elected struct{ Leader int }
)

// Type names the message kind.
func (Elect) Type() string { return "ELECT" }

// Type names the message kind.
func (Elected) Type() string { return "ELECTED" }

// pinger passes a ping round a ring of n nodes until it has made hops
// hops; the node told to start sends the first.
type pinger struct{ i, n, hops int }

func (p *pinger) Step(in node.Input, out *node.Output) {
	id := 1
	if in.Kind == node.InMsg {
		id = in.Msg.(Elect).ID + 1
	}
	if id <= p.hops {
		out.Send(p.i%p.n+1, Elect{ID: id})
	}
	out.Done = true
}

// Runtime runs a System over a RabbitMQ broker, every node in this
// process: each node has its queue, and every message is encoded, sent
// through the broker and decoded by the receiver. The names, prefixed by
// the algorithm and a run id, keep two runs on one broker apart; Teardown
// deletes them at the end. It needs a broker, so this example is not run.
func ExampleRuntime() {
	sys := engine.System{
		Name: "ping", Nodes: 3, Topology: trace.TopoRing,
		Factory:    func(i int) (node.Node, error) { return &pinger{i: i, n: 3, hops: 5}, nil },
		Messages:   []node.Msg{Elect{}},
		Script:     []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
		Properties: []check.Property{check.Termination{}},
	}
	rt := amqp.Runtime{
		URL:      amqp.DefaultURL,
		Names:    amqp.RunNames(sys.Name, "example"),
		Teardown: true,
		Timeout:  10 * time.Second,
	}
	res, err := rt.Run(context.Background(), sys, func(e *trace.Event) {})
	if err != nil {
		fmt.Println("no run:", err)
		return
	}
	fmt.Printf("%s after %d messages\n", res.End, res.Messages)
}

// A run's names on the broker: the ring election keeps its assignment's
// (exchange leader.election.ring, queues node.1..node.N), so processes
// written to that specification can join it; another algorithm's run
// prefixes every name by the algorithm and a run id, so runs never
// collide.
func ExampleRunNames() {
	ring := amqp.RingNames()
	fmt.Println(ring.Exchange, ring.Queue(1))
	run := amqp.RunNames("mutex ricart-agrawala", "r7")
	fmt.Println(run.Exchange, run.Queue(2))
	// Output:
	// leader.election.ring node.1
	// ringlab.mutex-ricart-agrawala.r7 ringlab.mutex-ricart-agrawala.r7.node.2
}
