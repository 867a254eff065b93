package election

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"ringlab/election/yoyo"
	"ringlab/internal/cliutil"
	"ringlab/internal/engine"
	"ringlab/internal/node"
	"ringlab/internal/runner"
	"ringlab/internal/trace"
)

func yoyoAlgo() algo {
	a := algo{
		name:  "yoyo",
		usage: "YoYo on any connected graph, with pruning: the smallest id wins (Santoro)",
		description: "The graph is --graph (an edge list of node indices) or --topology ring|grid|random\n" +
			"with --nodes (random is drawn from --seed). A disconnected graph is refused unless\n" +
			"--allow-disconnected: then every piece elects its own leader (split-brain, exit 3).\n" +
			"Messages: 2m ID, two per live edge and iteration, 2m-(n-1) LEADER; O(m log n).",
		example: "ringlab election yoyo --topology grid --nodes 12 --layout random --seed 2\n" +
			"   ringlab election yoyo --graph 1-2,2-3,4-5 --allow-disconnected   (two leaders: exit 3)",
		def: defaults{ids: defaultRingIDs, initiators: "all", minNodes: 1, positive: true},
		flags: func() []cli.Flag {
			return []cli.Flag{
				&cli.StringFlag{Name: "graph", Usage: "undirected `EDGES` between node indices, e.g. 1-2,2-3,3-1 (sets the number of nodes)"},
				&cli.StringFlag{Name: "topology", Value: "ring", Usage: "without --graph: ring, grid or random (connected, drawn from --layout-seed)"},
				&cli.BoolFlag{Name: "allow-disconnected", Usage: "accept a graph in pieces: each piece elects its own leader (split-brain)"},
			}
		},
		build: buildYoyo,
	}
	a.count = func(c *cli.Context) (int, error) {
		if !c.IsSet("graph") {
			return nodeCount(c, a.def, len(a.def.ids))
		}
		if c.IsSet("nodes") || c.IsSet("topology") {
			return 0, cliutil.Usagef("--graph sets the nodes and edges; drop --nodes and --topology")
		}
		_, n, err := parseEdges(c.String("graph"))
		if err != nil {
			return 0, err
		}
		if c.IsSet("ids") {
			ids, err := parseIDs(c.String("ids"))
			if err != nil {
				return 0, err
			}
			if len(ids) != n {
				return 0, cliutil.Usagef("--ids: %d ids for the %d nodes of --graph; give one id per node", len(ids), n)
			}
		}
		return n, nil
	}
	return a
}

func buildYoyo(c *cli.Context, s setup, opts *runner.Options) (engine.System, error) {
	var topo node.Topology
	var err error
	if c.IsSet("graph") {
		edges, n, _ := parseEdges(c.String("graph"))
		topo, err = graphOf(n, edges)
	} else {
		topo, err = generate(c.String("topology"), s.n(), s.seed)
	}
	if err != nil {
		return engine.System{}, err
	}
	cfg := yoyo.Config{Topology: topo, Ids: s.ids, AllowDisconnected: c.Bool("allow-disconnected")}
	if !cfg.AllowDisconnected && !topo.Connected() {
		return engine.System{}, cliutil.Usagef("--graph: the graph is not connected, so each piece would elect its own leader; connect it, or add --allow-disconnected to see the split-brain")
	}
	f, err := yoyo.Factory(cfg)
	if err != nil {
		return engine.System{}, cliutil.Usagef("--ids: %v", err)
	}
	m, n := edgeCount(topo), s.n()
	return engine.System{
		Factory: f, Messages: yoyo.MessageTypes(), Script: starts(s), Topology: trace.TopoGraph, Edges: edgeList(topo),
		Properties: verdicts(s.ids, minID(s.ids), "the smallest id"),
		Figures: func(*trace.Summary) map[string]any {
			return map[string]any{
				"graph":  fmt.Sprintf("%d nodes, %d edges, connected: %v", n, m, topo.Connected()),
				"theory": fmt.Sprintf("2m = %d ID, 2m-(n-1) = %d LEADER (connected), plus YO and votes O(m log n)", 2*m, 2*m-(n-1)),
			}
		},
	}, nil
}
