package election

import (
	"fmt"

	"ringlab/election/yoyo"
	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

func yoyoAlgo() entry {
	return entry{
		name:  "yoyo",
		usage: "YoYo on any connected graph, with pruning: the smallest id wins (Santoro)",
		description: "The graph is --graph (an edge list of node indices) or --topology ring|grid|random\n" +
			"with --nodes (random is drawn from --seed). A disconnected graph is refused unless\n" +
			"--allow-disconnected: then every piece elects its own leader (split-brain, exit 3).\n" +
			"Messages: 2m ID, two per live edge and iteration, 2m-(n-1) LEADER; O(m log n).",
		example: "ringlab election yoyo --topology grid --nodes 12 --layout random --seed 2\n" +
			"   ringlab election yoyo --graph 1-2,2-3,4-5 --allow-disconnected   (two leaders: exit 3)",
		exploreExample: "ringlab election explore yoyo --nodes 8 --layout random --latency 1-5 --schedules 500",
		checkExample:   "ringlab election check yoyo --graph 1-2,2-3,3-1",
		def:            defaults{ids: defaultRingIDs, initiators: "all", minNodes: 1, positive: true},
		params: []engine.Param{
			{Name: "graph", Default: "", Usage: "undirected `EDGES` between node indices, e.g. 1-2,2-3,3-1 (sets the number of nodes)"},
			{Name: "topology", Default: "ring", Usage: "without --graph: ring, grid or random (connected, drawn from --layout-seed)"},
			{Name: "allow-disconnected", Default: false, Usage: "accept a graph in pieces: each piece elects its own leader (split-brain)"},
		},
		count: countYoyo,
		build: buildYoyo,
	}
}

// countYoyo is the number of nodes: --graph's, or --ids/--nodes.
func countYoyo(p engine.Params, d defaults) (int, error) {
	if !p.Given("graph") {
		return nodeCount(p, d, len(d.ids))
	}
	if p.Given("nodes") || p.Given("topology") {
		return 0, cliutil.Usagef("--graph sets the nodes and edges; drop --nodes and --topology")
	}
	_, n, err := parseEdges(p.String("graph"))
	if err != nil {
		return 0, err
	}
	if p.Given("ids") {
		ids, err := parseIDs(p.String("ids"))
		if err != nil {
			return 0, err
		}
		if len(ids) != n {
			return 0, cliutil.Usagef("--ids: %d ids for the %d nodes of --graph; give one id per node", len(ids), n)
		}
	}
	return n, nil
}

func buildYoyo(p engine.Params, _ engine.Env, s setup) (engine.System, error) {
	var topo node.Topology
	var err error
	if p.Given("graph") {
		edges, n, _ := parseEdges(p.String("graph"))
		topo, err = graphOf(n, edges)
	} else {
		topo, err = generate(p.String("topology"), s.n(), s.seed)
	}
	if err != nil {
		return engine.System{}, err
	}
	cfg := yoyo.Config{Topology: topo, Ids: s.ids, AllowDisconnected: p.Bool("allow-disconnected")}
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
