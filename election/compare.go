package election

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// compared are the algorithms `compare` knows the theory of, in its
// default order.
func compared() []entry {
	var es []entry
	for _, e := range entries() {
		if e.compare != nil {
			es = append(es, e)
		}
	}
	slices.SortStableFunc(es, func(a, b entry) int { return cmp.Compare(a.compare.rank, b.compare.rank) })
	return es
}

func comparedNames() []string {
	var names []string
	for _, e := range compared() {
		names = append(names, e.name)
	}
	return names
}

// compareLayouts name arrangements by their effect: worst and best are the
// most and fewest messages the theory allows (see layoutIDs).
var compareLayouts = []string{"worst", "best", "random"}

func compareCommand() *cli.Command {
	compareAlgos := comparedNames()
	return &cli.Command{
		Name:  "compare",
		Usage: "measure messages on the simulator against the theory, one row per algorithm, size and layout",
		UsageText: "ringlab election compare [--algos ring,chang-roberts,franklin,idlist] [--nodes 8,64,512,4096] [--layout worst,best,random] [--format text|json]\n\n" +
			"Example:\n   ringlab election compare --algos ring,chang-roberts --nodes 8,64 --layout worst",
		Description: "Every row is a real run on the simulator (FIFO, latency 1, no faults) with the\n" +
			"election checkers; a row whose count is outside its bound, or whose run fails a\n" +
			"check, is flagged with ✗ and makes the exit status 3. ring starts at node 1 only;\n" +
			"chang-roberts and franklin start every node; idlist starts node 1 (--idlist-all: all).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "algos", Value: strings.Join(compareAlgos, ","), Usage: "algorithms, comma-separated: " + strings.Join(compareAlgos, ", ")},
			&cli.StringFlag{Name: "nodes", Value: "8,64,512,4096", Usage: "ring sizes, comma-separated (each 1..65536)"},
			&cli.StringFlag{Name: "layout", Value: strings.Join(compareLayouts, ","), Usage: "id layouts, comma-separated: worst, best, random"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random layout"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text (a table and the formulas) or json (one object per row)"},
			&cli.BoolFlag{Name: "idlist-all", Usage: "idlist with every node starting: n^2 messages of up to n ids (slow past ~1000 nodes)"},
		},
		Action: compareAction,
	}
}

func compareAction(c *cli.Context) error {
	if err := cliutil.NoArgs(c); err != nil {
		return err
	}
	names, err := listOf(c.String("algos"), comparedNames(), "--algos")
	if err != nil {
		return err
	}
	lays, err := listOf(c.String("layout"), compareLayouts, "--layout")
	if err != nil {
		return err
	}
	sizes, err := parseSizes(c.String("nodes"))
	if err != nil {
		return err
	}
	format := c.String("format")
	if format != "text" && format != "json" {
		return cliutil.Usagef("--format: unknown format %q (want text or json)", format)
	}
	tw := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	enc := json.NewEncoder(c.App.Writer)
	enc.SetEscapeHTML(false)
	if format == "text" {
		fmt.Fprintln(tw, "algorithm\tn\tlayout\tstarters\tmessages\ttheory\tok\tformula")
	}
	bad := 0
	for _, name := range names {
		for _, n := range sizes {
			for _, lay := range lays {
				r, err := measure(c.Context, name, n, lay, c.Uint64("seed"), c.Bool("idlist-all"))
				if err != nil {
					return err
				}
				if c.Context.Err() != nil { // Ctrl-C: the rows so far are printed, the cut row is not
					break
				}
				if !r.ok {
					bad++
				}
				if format == "json" {
					why := ""
					if !r.ok {
						why = r.why
					}
					if err := enc.Encode(jsonRow{name, n, lay, r.starters, r.msgs, r.theory, r.ok, why, r.formula}); err != nil {
						return err
					}
					continue
				}
				mark := "✓"
				if !r.ok {
					mark = "✗ " + r.why
				}
				fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d\t%s\t%s\t%s\n", name, n, lay, r.starters, r.msgs, r.theory, mark, r.formula)
			}
		}
	}
	if format == "text" {
		if err := tw.Flush(); err != nil {
			return err
		}
		writeFormulas(c.App.Writer)
	}
	if err := c.Context.Err(); err != nil {
		return err // interrupted: exit 130 after the rows measured so far
	}
	if bad > 0 {
		return cliutil.Violationf("%d row(s) outside their bound or failing a check", bad)
	}
	return nil
}

// parseSizes reads compare's --nodes: sizes in 1..65536, comma-separated.
func parseSizes(text string) ([]int, error) {
	var sizes []int
	for f := range strings.SplitSeq(text, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 65536 {
			return nil, cliutil.Usagef("--nodes: want sizes in 1..65536, comma-separated; got %q", strings.TrimSpace(f))
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

func listOf(text string, allowed []string, flag string) ([]string, error) {
	var out []string
	for f := range strings.SplitSeq(text, ",") {
		f = strings.TrimSpace(f)
		if !slices.Contains(allowed, f) {
			return nil, cliutil.Usagef("%s: unknown value %q (want %s)", flag, f, strings.Join(allowed, ", "))
		}
		out = append(out, f)
	}
	return out, nil
}

// jsonRow is a row as `compare --format json` writes it, one object a line.
type jsonRow struct {
	Algorithm string `json:"algorithm"`
	N         int    `json:"n"`
	Layout    string `json:"layout"`
	Starters  string `json:"starters"`
	Messages  int64  `json:"messages"`
	Theory    string `json:"theory"`
	OK        bool   `json:"ok"`
	Why       string `json:"why,omitempty"`
	Formula   string `json:"formula"`
}

// row is one measured run and its theory.
type row struct {
	starters        string
	msgs            int64
	theory, formula string
	ok              bool
	why             string
}

// layoutIDs arranges ids 1..n. For ring (smallest wins, started at node 1)
// and chang-roberts (largest wins) the worst case is ids decreasing along
// the ring and the best increasing; for franklin the worst is the
// bit-reversal order (about half the actives survive each round) and the
// best increasing (one round, then the winner's).
func layoutIDs(c *comparison, lay string, n int, seed uint64) []int {
	switch {
	case lay == "random":
		ids, _ := layout("random", n, seed)
		return ids
	case lay == "best":
		ids, _ := layout("ascending", n, seed)
		return ids
	case c.worst != nil:
		return c.worst(n)
	}
	ids, _ := layout("descending", n, seed)
	return ids
}

// bitReversal ranks positions 0..n-1 by their reversed bits: ids 1..n.
func bitReversal(n int) []int {
	b := bits.Len(uint(max(n-1, 1)))
	pos := make([]int, n)
	for i := range pos {
		pos[i] = i
	}
	key := func(i int) uint { return bits.Reverse(uint(i)) >> (bits.UintSize - b) }
	slices.SortFunc(pos, func(x, y int) int { return int(key(x)) - int(key(y)) })
	ids := make([]int, n)
	for rank, p := range pos {
		ids[p] = rank + 1
	}
	return ids
}

// measure runs one row on the simulator: the run the algorithm's Build
// makes for these ids and starters, judged by its properties and by the
// theory.
func measure(ctx context.Context, name string, n int, lay string, seed uint64, idlistAll bool) (row, error) {
	i := slices.IndexFunc(compared(), func(e entry) bool { return e.name == name })
	e := compared()[i] // listOf accepted only these names
	s := setup{ids: layoutIDs(e.compare, lay, n, seed), starters: []int{1}}
	r := row{starters: "1"}
	if e.compare.allStart || e.compare.listAll && idlistAll {
		s.starters, _ = parseInitiators("all", n)
		r.starters = "all"
	}
	p := e.algorithm().Defaults()
	if err := errors.Join(p.Give("ids", joinInts(s.ids)), p.Give("initiators", r.starters)); err != nil {
		return r, err
	}
	sys, err := e.system(p, engine.Env{Seed: seed, Runtime: "sim", MaxDelay: 1})
	if err != nil {
		return r, err
	}
	th := e.compare.theory(s)
	set := check.NewSet(sys.Properties...)
	sink := func(ev *trace.Event) {
		set.Observe(ev)
		if sys.Observe != nil {
			sys.Observe(ev)
		}
		if th.observe != nil {
			th.observe(ev)
		}
	}
	rt := sim.Runtime{Seed: seed, Messages: th.sends || sys.Wants().Has(trace.KindSend), MaxSteps: 1 << 40}
	res, err := rt.Run(ctx, engine.System{Nodes: n, Factory: sys.Factory, Script: sys.Script}, sink)
	if err != nil {
		return r, err
	}
	r.msgs = res.Messages
	r.theory, r.formula, r.ok, r.why = th.judge(res.Messages)
	for _, v := range set.Finish(check.End{Terminated: res.End == engine.Quiescent, Messages: res.Messages}) {
		if !v.OK && r.ok {
			r.ok, r.why = false, v.Property+": "+v.Detail
		}
	}
	return r, nil
}

// joinInts writes ids as --ids takes them.
func joinInts(ids []int) string {
	b := make([]byte, 0, 8*len(ids))
	for k, id := range ids {
		if k > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(id), 10)
	}
	return string(b)
}
