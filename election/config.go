package election

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"ringlab/engine"
	"ringlab/engine/cliutil"
)

// MaxNodes bounds --nodes (a million-node election fits in a few GiB).
const MaxNodes = 2_000_000

// Layouts of generated ids along the ring (node 1, 2, ..., n).
var layouts = []string{"ascending", "descending", "random"}

// commonParams are the parameters every election shares; their help
// shows the algorithm's defaults d.
func commonParams(d defaults) []engine.Param {
	ids, nodes := "", ""
	if d.ids != nil {
		parts := make([]string, len(d.ids))
		for k, id := range d.ids {
			parts[k] = strconv.Itoa(id)
		}
		ids = strings.Join(parts, ",")
		nodes = "as many as --ids"
	} else {
		nodes = strconv.Itoa(d.nodes)
	}
	return []engine.Param{
		{Name: "ids", Default: "", DefaultText: ids, Usage: "node `IDS` in ring order, comma-separated, e.g. 5,3,7,1,4 (distinct integers)"},
		{Name: "nodes", Default: 0, DefaultText: nodes, Usage: fmt.Sprintf("generate ids 1..N for `N` nodes (1..%d), placed by --layout", MaxNodes)},
		{Name: "layout", Default: "ascending", Usage: "with --nodes: ids along the ring: ascending, descending or random (drawn from --layout-seed)"},
		{Name: "layout-seed", Default: uint64(0), DefaultText: "--seed", Usage: "seed of a random --layout or --topology (explore keeps one layout for all its schedules and writes it in its replay)"},
		{Name: "initiators", Default: "", DefaultText: d.initiators, Usage: "`NODES` given start at tick 0: 1, all, or a list of 1-based indices like 1,3"},
	}
}

// pinLayout gives explore the --layout-seed that fixes a random layout or
// topology drawn from env's seed, so that every schedule and the replay
// run on one layout.
func pinLayout(p engine.Params, env engine.Env) map[string]string {
	random := p.String("layout") == "random" || p.Given("topology") && p.String("topology") == "random"
	if !random || p.Given("layout-seed") || p.Given("ids") {
		return nil
	}
	return map[string]string{"layout-seed": strconv.FormatUint(env.Seed, 10)}
}

// setup is the parsed configuration of one election: the ids by node index
// and the nodes that start.
type setup struct {
	ids      []int  // ids[i-1] is node i's id
	starters []int  // 1-based indices, in the order given
	seed     uint64 // draws a random layout or topology
}

func (s setup) n() int { return len(s.ids) }

// defaults are an algorithm's configuration when no flag says otherwise.
type defaults struct {
	ids        []int  // used when neither --ids nor --nodes is set
	nodes      int    // ids 1..nodes when ids is nil
	initiators string // "1", "all", ...
	minNodes   int
	positive   bool // ids must be >= 1
}

// nodeCount reads how many nodes --ids or --nodes asks for (before the
// engine flags, which need it), or fallback when neither is set.
func nodeCount(p engine.Params, d defaults, fallback int) (int, error) {
	switch {
	case p.Given("ids") && p.Given("nodes"):
		return 0, cliutil.Usagef("--ids and --nodes exclude each other: --ids sets the number of nodes")
	case p.Given("ids") && p.Given("layout"):
		return 0, cliutil.Usagef("--layout places generated ids; use it with --nodes, not --ids")
	case p.Given("ids"):
		ids, err := parseIDs(p.String("ids"))
		if err != nil {
			return 0, err
		}
		return checkCount(len(ids), d.minNodes, "--ids")
	case p.Given("nodes"):
		return checkCount(p.Int("nodes"), d.minNodes, "--nodes")
	}
	return fallback, nil
}

func checkCount(n, minNodes int, flag string) (int, error) {
	if n < minNodes || n > MaxNodes {
		return 0, cliutil.Usagef("%s: this election needs %d..%d nodes, got %d", flag, minNodes, MaxNodes, n)
	}
	return n, nil
}

// parseSetup reads --ids or --nodes/--layout and --initiators for n nodes;
// seed (or --layout-seed) draws a random layout.
func parseSetup(p engine.Params, d defaults, n int, seed uint64) (setup, error) {
	if p.Given("layout-seed") {
		if p.String("layout") != "random" && !(p.Given("topology") && p.String("topology") == "random") {
			return setup{}, cliutil.Usagef("--layout-seed draws a random layout or topology; add --layout random (or yoyo's --topology random), or drop it")
		}
		seed = p.Uint64("layout-seed")
	}
	s := setup{seed: seed}
	var err error
	switch {
	case p.Given("ids"):
		s.ids, err = parseIDs(p.String("ids"))
	case p.Given("nodes") || d.ids == nil || len(d.ids) != n:
		s.ids, err = layout(p.String("layout"), n, seed)
	default:
		s.ids = slices.Clone(d.ids) // distinct and positive
	}
	if err != nil {
		return s, err
	}
	if p.Given("ids") { // generated layouts are permutations of 1..n
		if err := checkIDs(s.ids, d.positive); err != nil {
			return s, err
		}
	}
	init := d.initiators
	if p.Given("initiators") {
		init = p.String("initiators")
	}
	s.starters, err = parseInitiators(init, n)
	return s, err
}

func parseIDs(text string) ([]int, error) {
	var ids []int
	for f := range strings.SplitSeq(text, ",") {
		id, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, cliutil.Usagef("--ids: %q is not an integer (want a list like 5,3,7,1,4)", strings.TrimSpace(f))
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func checkIDs(ids []int, positive bool) error {
	first := make(map[int]int, len(ids))
	for i, id := range ids {
		if positive && id < 1 {
			return cliutil.Usagef("--ids: node %d has id %d; this election needs ids >= 1", i+1, id)
		}
		if j, dup := first[id]; dup {
			return cliutil.Usagef("--ids: ids must be distinct: nodes %d and %d both have id %d", j, i+1, id)
		}
		first[id] = i + 1
	}
	return nil
}

// layout places ids 1..n along the ring.
func layout(name string, n int, seed uint64) ([]int, error) {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i + 1
	}
	switch name {
	case "ascending":
	case "descending":
		slices.Reverse(ids)
	case "random":
		shuffle(rand.New(rand.NewPCG(seed, 0x6c61796f7574)), ids) // "layout"
	default:
		return nil, cliutil.Usagef("--layout: unknown layout %q (want %s)", name, strings.Join(layouts, ", "))
	}
	return ids, nil
}

// shuffle is rng.Shuffle(len(ids), swap), the same permutation for the
// same source, drawn in blocks: a block's indices first, then its swaps.
// On a million ids each swap is a cache miss at a random index; with no
// draw between them, the CPU overlaps the misses of many swaps instead of
// waiting for one at a time (twice as fast). Shuffle draws j for i = n-1
// down to 1 with Uint64N(i+1); so does this, in the same order.
func shuffle(rng *rand.Rand, ids []int) {
	var js [64]int
	for i := len(ids) - 1; i > 0; {
		b := min(i, len(js))
		for k := range b {
			js[k] = int(rng.Uint64N(uint64(i - k + 1)))
		}
		for k, j := range js[:b] {
			ids[i-k], ids[j] = ids[j], ids[i-k]
		}
		i -= b
	}
}

// parseInitiators reads "all", or 1-based indices like "1,3".
func parseInitiators(text string, n int) ([]int, error) {
	if strings.TrimSpace(text) == "all" {
		all := make([]int, n)
		for i := range all {
			all[i] = i + 1
		}
		return all, nil
	}
	var out []int
	seen := map[int]bool{}
	for f := range strings.SplitSeq(text, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || i < 1 || i > n {
			return nil, cliutil.Usagef("--initiators: want all or node indices in 1..%d, got %q", n, strings.TrimSpace(f))
		}
		if seen[i] {
			return nil, cliutil.Usagef("--initiators: node %d is listed twice", i)
		}
		seen[i] = true
		out = append(out, i)
	}
	return out, nil
}

// indexOf returns the 1-based index of the node holding id.
func indexOf(ids []int, id int) int { return slices.Index(ids, id) + 1 }
