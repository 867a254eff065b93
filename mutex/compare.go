package mutex

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	rcli "ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/engine/sim"
	"ringlab/mutex/kit"
)

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:  "compare",
		Usage: "measure every algorithm against its theory: messages per entry, delays, throughput, fairness",
		UsageText: "ringlab mutex compare [--nodes 3,5,9,17] [--requests 20] [--cs-time 1] [--think-time 0] [--format text|json]\n\n" +
			"Example:\n   ringlab mutex compare --nodes 3,5,9,17 --requests 20",
		Description: "N processes use the critical section (central adds its coordinator; quorum has n = N\n" +
			"coordinators, m = N/2+1). Simulator, latency 1 tick = 1 hop, FIFO links, seed 1.\n" +
			"heavy: every process asks --requests times, --think-time after each exit (0: saturated).\n" +
			"light: every process asks once, alone. See the README for the exact definitions.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "nodes", Value: "3,5,9,17", Usage: "comma-separated process counts (each 2..256)"},
			&cli.IntFlag{Name: "requests", Value: 20, Usage: "entries each process asks for in the heavy run (1..10000)"},
			&cli.Int64Flag{Name: "cs-time", Value: 1, Usage: "ticks in the critical section (0..1000)"},
			&cli.Int64Flag{Name: "think-time", Value: 0, Usage: "ticks between an exit and the next request in the heavy run (0..100000)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text (a table) or json (one object per row)"},
		},
		Action: compareAction,
	}
}

// row is one line of the comparison.
type row struct {
	Algorithm  string  `json:"algorithm"`
	N          int     `json:"n"`
	PerEntry   float64 `json:"msgs_per_entry"`
	Theory     string  `json:"theory"`
	SyncDelay  float64 `json:"sync_delay_hops"`
	RespLight  float64 `json:"response_light_hops"`
	RespHeavy  float64 `json:"response_heavy_hops"`
	Throughput float64 `json:"entries_per_100_ticks"`
	Jain       float64 `json:"fairness_jain"`
	MaxWait    int64   `json:"max_wait_ticks"`
	// ExactMin and ExactMax are, for N <= exactMaxN, the fewest and most
	// messages per entry over every schedule of one request per process
	// (-1: not computed; ExactMax -1 with ExactMin set: unbounded).
	ExactMin float64 `json:"msgs_per_entry_every_schedule_min"`
	ExactMax float64 `json:"msgs_per_entry_every_schedule_max"`
	// Overtaken is, for N <= exactMaxN, the most entries by others while
	// one process waits, over every schedule of one request per process;
	// InFlight the most messages in flight at once (-1: not computed).
	Overtaken int64  `json:"most_overtaken_every_schedule"`
	InFlight  int    `json:"most_in_flight_every_schedule"`
	Problem   string `json:"problem,omitempty"`
}

func compareAction(c *cli.Context) error {
	if err := cliutil.NoArgs(c); err != nil {
		return err
	}
	ns, err := parseCounts(c.String("nodes"))
	if err != nil {
		return err
	}
	req, cs, think := c.Int("requests"), c.Int64("cs-time"), c.Int64("think-time")
	switch {
	case req < 1 || req > 10_000:
		return cliutil.Usagef("--requests must be between 1 and 10000, got %d", req)
	case cs < 0 || cs > 1000:
		return cliutil.Usagef("--cs-time must be between 0 and 1000 ticks, got %d", cs)
	case think < 0 || think > 100_000:
		return cliutil.Usagef("--think-time must be between 0 and 100000 ticks, got %d", think)
	}
	format := c.String("format")
	if format != "text" && format != "json" {
		return cliutil.Usagef("--format: unknown format %q (want text or json)", format)
	}
	// JSON rows go out as they are measured (NDJSON streams); the text
	// table waits for every row, to align its columns.
	var rows []row
	printed := 0
	flush := func() error {
		if format == "json" {
			err := printRows(c.App.Writer, rows[printed:], format)
			printed = len(rows)
			return err
		}
		return printRows(c.App.Writer, rows, format)
	}
	for _, a := range list() {
		for _, n := range ns {
			r, err := compareOne(c.Context, a, n, req, cs, think)
			if err != nil && c.Context.Err() != nil { // Ctrl-C: the rows measured so far, then exit 130
				if perr := flush(); perr != nil {
					return perr
				}
				return c.Context.Err()
			}
			if err != nil {
				return err
			}
			rows = append(rows, r)
			if format == "json" {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	if format == "text" {
		if err := flush(); err != nil {
			return err
		}
	}
	for _, r := range rows { // a row whose run failed a check fails the command, as a run would
		if r.Problem != "" {
			return cliutil.Violationf("%s at N=%d: %s", r.Algorithm, r.N, r.Problem)
		}
	}
	return nil
}

func parseCounts(s string) ([]int, error) {
	var ns []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 2 || n > 256 {
			return nil, cliutil.Usagef("--nodes: want comma-separated counts, each 2..256, got %q", f)
		}
		ns = append(ns, n)
	}
	return ns, nil
}

// comparePlan is algorithm a with n processes asking for the critical
// section requests times each.
func (a algorithm) comparePlan(n, requests int) (plan, error) {
	if a.compare != nil {
		return a.compare(n, requests)
	}
	return a.plan(a.algorithm().Defaults(), n, requests)
}

// compareOne measures algorithm a with n processes: a heavy run and a light one.
func compareOne(ctx context.Context, a algorithm, n, requests int, cs, think int64) (row, error) {
	r := row{Algorithm: a.name, N: n, ExactMin: -1, ExactMax: -1, Overtaken: -1, InFlight: -1}
	pl, err := a.comparePlan(n, requests)
	if err != nil {
		return r, err
	}
	if n <= exactMaxN {
		one, err := a.comparePlan(n, 1)
		if err != nil {
			return r, err
		}
		if x, ok := exactFigures(ctx, a.name, one); ok {
			r.ExactMin, r.ExactMax, r.Overtaken, r.InFlight = x.fewest, x.most, x.overtaken, x.inFlight
		}
	}
	r.Theory = pl.theory
	heavy, msgs, problem, err := measure(ctx, pl, kit.NewWorkload(pl.kit(), requests, cs, think))
	if err != nil {
		return r, err
	}
	r.PerEntry, r.SyncDelay, r.RespHeavy = heavy.perEntry(msgs), heavy.syncDelay(), heavy.response()
	r.Throughput, r.Jain, r.MaxWait, r.Problem = heavy.throughput(), heavy.jain(), heavy.maxWait, problem

	if pl, err = a.comparePlan(n, 1); err != nil {
		return r, err
	}
	w := kit.NewWorkload(pl.kit(), 1, cs, 0)
	gap := int64(4*pl.nodes) + cs + 10 // long enough for one entry and its release to finish
	for k, i := range pl.requesters {
		w.Starts[i] = int64(k) * gap
	}
	light, _, lproblem, err := measure(ctx, pl, w)
	if err != nil {
		return r, err
	}
	r.RespLight = light.response()
	if r.Problem == "" {
		r.Problem = lproblem
	}
	return r, err
}

// measure runs one simulation and returns its figures, messages, and the
// failed verdict if any.
func measure(ctx context.Context, pl plan, w kit.Workload) (*stats, int64, string, error) {
	spec, last := newSpec("compare", pl, w)
	opts := rcli.Options{Runtime: "sim", Seed: 1, Format: "none", Latency: sim.Delay{Min: 1, Max: 1}, MaxSteps: 50_000_000}
	out, err := rcli.Execute(ctx, spec, opts, "", io.Discard, io.Discard)
	problem := ""
	switch cliutil.Code(err) {
	case cliutil.ExitOK:
	case cliutil.ExitViolation, cliutil.ExitNoTermination:
		problem = err.Error()
	default:
		return nil, 0, "", err
	}
	return last, out.Summary.Messages, problem, nil
}

func printRows(w io.Writer, rows []row, format string) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		for _, r := range rows {
			if err := enc.Encode(jsonRow(r)); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algorithm\tN\tmsgs/entry\tevery schedule\ttheory\tovertaken\tsync delay\tresponse light\tresponse heavy\tentries/100 ticks\tJain\tmax wait\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", r.Algorithm, r.N, num(r.PerEntry), exactCell(r), r.Theory, overtakenCell(r),
			num(r.SyncDelay), num(r.RespLight), num(r.RespHeavy), num(r.Throughput), num(r.Jain), r.MaxWait, r.Problem)
	}
	return tw.Flush()
}

// jsonRow replaces undefined figures (NaN) by -1: JSON has no NaN.
func jsonRow(r row) row {
	for _, f := range []*float64{&r.PerEntry, &r.SyncDelay, &r.RespLight, &r.RespHeavy, &r.Throughput, &r.Jain} {
		if *f != *f {
			*f = -1
		}
	}
	return r
}
