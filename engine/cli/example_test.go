package cli_test

import (
	"fmt"
	"os"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/trace"
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

// ping describes the algorithm once; its parameters become flags.
var ping = engine.Algorithm{
	Name:  "ping",
	Usage: "a ping round a ring",
	Params: []engine.Param{
		{Name: "nodes", Usage: "nodes on the ring", Default: 3},
		{Name: "hops", Usage: "hops the ping makes", Default: 4},
	},
	Build: func(p engine.Params, _ engine.Env) (engine.System, error) {
		n, hops := p.Int("nodes"), p.Int("hops")
		return engine.System{
			Name: "toy ping", Nodes: n, Topology: trace.TopoRing,
			Factory:    func(i int) (node.Node, error) { return &pinger{i: i, n: n, hops: hops}, nil },
			Messages:   []node.Msg{Ping{}},
			Script:     []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
			Properties: []check.Property{check.Termination{}},
		}, nil
	},
}

// An Area's Command makes every command of its algorithms: `toy ping`
// runs one (on the simulator by default, --runtime live or amqp), `toy
// explore ping` tries many schedules, `toy check ping` searches every
// state. The app maps each command's error to an exit code through
// cliutil.Code: bad input to a flag is 2, before anything runs.
func ExampleArea() {
	area := cli.Area{Name: "toy", Usage: "toy algorithms", Algorithms: []engine.Algorithm{ping}}
	cmds := []*ucli.Command{area.Command()}
	cliutil.Prepare(cmds)
	app := &ucli.App{
		Name: "toyapp", Commands: cmds,
		Writer: os.Stdout, ErrWriter: os.Stdout, // a real app keeps stderr apart
		ExitErrHandler: func(*ucli.Context, error) {},
	}
	for _, args := range [][]string{
		{"toy", "ping", "--hops", "5", "--seed", "1", "--format", "none"},
		{"toy", "ping", "--nodes", "three"},
	} {
		err := app.Run(append([]string{"toyapp"}, args...))
		fmt.Printf("exit %d %v\n", cliutil.Code(err), err)
	}
	// Output:
	// toy ping on sim, 3 nodes, seed 1: 6 steps, t=5
	// messages: 5 (PING 5)
	// ✓ termination
	// replay: toyapp toy ping --hops 5 --format none --seed 1
	// exit 0 <nil>
	// exit 2 invalid value "three" for flag -nodes: parse error
}
