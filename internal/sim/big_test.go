package sim_test

// The million-node run of the simulator alone, shaped like
//
//	ringlab election chang-roberts --nodes 1000000 --layout random --initiators all --runtime sim --format none
//
// without the command's glue and checkers. It is skipped unless
// RINGLAB_BIG=1, and is meant to be profiled on its own:
//
//	go test -c -o /tmp/sim.test ./internal/sim
//	RINGLAB_BIG=1 /usr/bin/time -v /tmp/sim.test -test.run '^TestBigAllInitiators$' -test.v \
//	    -test.cpuprofile /tmp/sim.cpu -test.memprofile /tmp/sim.mem

import (
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"

	"ringlab/internal/node"
	"ringlab/internal/sim"
	"ringlab/internal/trace"
)

const bigNodes = 1_000_000

type elect struct{ ID int }

func (elect) Type() string { return "ELECTION" }

type elected struct{ Leader int }

func (elected) Type() string { return "ELECTED" }

// cr is Chang and Roberts with every node starting: each sends its id
// clockwise, forwards bigger ids and swallows smaller ones; the biggest comes
// home and its node announces itself once round the ring.
type cr struct {
	next, id int
	state    uint8 // 0 idle, 1 participant, 2 leader, 3 follower
}

func (c *cr) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		c.participate(out)
		out.Send(c.next, elect{c.id})
	case node.InMsg:
		switch m := in.Msg.(type) {
		case elect:
			switch {
			case m.ID > c.id:
				c.participate(out)
				out.Send(c.next, m)
			case m.ID == c.id:
				c.state = 2
				out.State("Leader")
				out.Leader(c.id)
				out.Send(c.next, elected{c.id})
			}
		case elected:
			if m.Leader != c.id {
				c.state = 3
				out.State("Follower")
				out.Leader(m.Leader)
				out.Send(c.next, m)
			}
		}
	}
	out.Done = c.state >= 2 && in.Kind == node.InMsg
}

func (c *cr) participate(out *node.Output) {
	if c.state == 0 {
		c.state = 1
		out.State("Participant")
	}
}

func TestBigAllInitiators(t *testing.T) {
	if os.Getenv("RINGLAB_BIG") != "1" {
		t.Skip("set RINGLAB_BIG=1 to run the million-node run")
	}
	n := bigNodes
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i + 1
	}
	rand.New(rand.NewPCG(1, 1)).Shuffle(n, func(a, b int) { ids[a], ids[b] = ids[b], ids[a] })
	script := make([]node.Action, n)
	for i := range script {
		script[i] = node.Action{Node: i + 1, Cmd: node.CmdStart}
	}
	var leaders, states int64
	cfg := sim.Config{
		Nodes:   n,
		Factory: func(i int) (node.Node, error) { return &cr{next: i%n + 1, id: ids[i-1]}, nil },
		Script:  script,
		Sink: func(e *trace.Event) { // what a checker set does with node events, cheaply
			switch e.Kind {
			case trace.KindLeader:
				leaders++
			case trace.KindState:
				states++
			}
		},
	}
	start := time.Now()
	res, err := sim.Run(cfg)
	wall := time.Since(start)
	if err != nil || !res.Quiescent || leaders != int64(n) {
		t.Fatalf("%v: %+v, %d leader events", err, res, leaders)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("%d nodes, %d messages (%v): run %v (%.0f ns/msg), heap obtained from the OS %d MiB, GC cycles %d",
		n, res.Messages, res.ByType, wall.Round(time.Millisecond), float64(wall.Nanoseconds())/float64(res.Messages),
		ms.HeapSys>>20, ms.NumGC)
}
