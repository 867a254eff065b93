package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/lang"
	"ringlab/engine/run"
	"ringlab/engine/serve"
	"ringlab/engine/sim"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
)

// CheckFlags are the flags of an exhaustive `check` command, on top of the
// algorithm's own (which set its nodes, requests, initiators, timeouts).
func CheckFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: "policy", Value: "fifo", Usage: "delivery: fifo (the head of any link next) or random (any message in flight next)"},
		&ucli.StringFlag{Name: "timers", Value: "any", Usage: "when a pending timer may fire: any (any moment: the asynchronous model) or quiet (only with no message in flight: timeouts longer than any delay)"},
		&ucli.IntFlag{Name: "max-depth", Usage: "explore no path longer than this many steps (0: no bound); a path cut short proves nothing (exit 4)"},
		&ucli.IntFlag{Name: "max-flight", Usage: "a state constraint on the network, as TLC's: states with more than this many messages in flight on one link are counted but not expanded (0: none); a violation or lasso found within it is one of the unbounded system; with states left beyond it the check proves nothing (exit 4); turns --por off"},
		&ucli.Int64Flag{Name: "max-states", Usage: "stop after this many distinct states (0: no bound); stopped, the check proves nothing (exit 4)"},
		&ucli.Float64Flag{Name: "max-memory", Value: 4, Usage: "stop when the Go heap and the tables the search keeps off it pass this many GiB (0: no bound)"},
		&ucli.DurationFlag{Name: "timeout", Usage: "stop after this much wall-clock time, e.g. 60s (0: no bound)"},
		&ucli.IntFlag{Name: "crashes", Usage: "also crash any node at any point, up to this many crashes (0..8)"},
		&ucli.IntFlag{Name: "restarts", Usage: "also restart any crashed node with its state lost (amnesia), up to this many times (0..8)"},
		&ucli.IntFlag{Name: "drops", Usage: "also lose any message in flight, up to this many (0..8)"},
		&ucli.BoolFlag{Name: "por", Value: true, Usage: "partial-order reduction: ample sets (under fifo, with no fault pending: one group of nodes' invisible steps where the others cannot interfere) and sleep sets (one order of independent steps at different nodes); --por=false is the full search"},
		&ucli.IntFlag{Name: "workers", Usage: "goroutines that compute successors, breadth first level by level (0: one per core); the verdict, counts and shortest path are the same for any number; --liveness, --goal and --extremes' pass run on one", DefaultText: "every core"},
		&ucli.BoolFlag{Name: "exact", Usage: "store whole state keys instead of 64-bit fingerprints (more memory, no omission risk)"},
		SingleFlag("property", "look for violations of this property only, e.g. mutual-exclusion (once: one check looks for one property or for all); a name the run does not check is refused with the list (default: any)"),
		&ucli.BoolFlag{Name: "liveness", Usage: "also judge the liveness properties (no starvation) over every fair infinite schedule: keep the state graph, find its strongly connected components and print a lasso (prefix|cycle) where a promise is never kept; turns --por off"},
		&ucli.StringFlag{Name: "path", Usage: "replay one path printed by a check, `LABELS` like c2,d2-1,t1:1, or a lasso PREFIX|CYCLE (prefix, then one turn of the cycle) (the trace, in --format)"},
		&ucli.BoolFlag{Name: "serve", Usage: "be the scheduler in the browser: serve a page at the initial state (or the state --path reaches) where you choose every step, on --addr until Ctrl-C"},
		&ucli.StringFlag{Name: "addr", Value: serve.DefaultAddr, Usage: "with --serve: `HOST:PORT` to listen on (port 0 picks a free one; loopback unless you mean to expose it)"},
		&ucli.IntFlag{Name: "explore-states", Value: 2_000_000, Usage: "with --serve: analyse the whole space up to this many states to mark what every step leads to (0: no bound)"},
		&ucli.DurationFlag{Name: "explore-time", Value: 20 * time.Second, Usage: "with --serve: give the whole-space analysis at most this long; past it the page works without the marks"},
		&ucli.StringFlag{Name: "format", Value: "text", Usage: "text, json (one JSON object; with --path the NDJSON events), none, or a picture of the counterexample (with --path or a violation; the figures go to stderr): mermaid, svg, shiviz or chrome-trace"},
		&ucli.BoolFlag{Name: "extremes", Usage: "after an exhausted search without a violation, the extremes over every schedule, each with a path: the fewest and most messages (in total, by type, per entry over cycles), the most in flight, the longest wait (the whole graph again, without reduction); printed by default when the search found at most 20000 states, --extremes up to 2000000 analysed states, --extremes=false never", DefaultText: "when small"},
		SingleFlag("goal", "search for a state where this goal holds and print a shortest path to it (`NAME`: messages-on-a-link, or one the algorithm registers; an unknown name lists them; once); exit 3 if none is reachable"),
		&ucli.BoolFlag{Name: "symmetry", Usage: "keep one state of every orbit under the symmetry the algorithm declares (the rotations of a symmetric ring): fewer states, the same verdicts, a concrete path; off by default; turns --por off, runs on one worker; refused with --liveness, --goal, --from-path and --serve, ignored with --path"},
		&ucli.BoolFlag{Name: "derived", Hidden: true, Usage: "copy and key every node state by its Go value, ignoring the node's own Clone and AppendKey: the counts and verdicts must be the same (a test of those methods, and a measure of what they save)"},
		&ucli.StringFlag{Name: "from-path", Usage: "stage the search: start from the state this path reaches (`LABELS`, taken with any timer and fault it holds; empty: the initial state), with the fault budgets and --timers counted from there; --path then continues it"},
	}
}

// checkReport is the JSON object a check prints with --format json.
type checkReport struct {
	Algorithm   string  `json:"algorithm"`
	Nodes       int     `json:"nodes"`
	Policy      string  `json:"policy"`
	Timers      string  `json:"timers"`
	POR         bool    `json:"por"`
	Crashes     int     `json:"crashes"`
	Restarts    int     `json:"restarts"`
	Drops       int     `json:"drops"`
	Explored    int64   `json:"explored"`
	Distinct    int64   `json:"distinct"`
	Transitions int64   `json:"transitions"`
	Terminal    int64   `json:"terminal"`
	Depth       int     `json:"depth"`
	Seconds     float64 `json:"seconds"`
	PerSecond   float64 `json:"states_per_second"`
	MemBytes    uint64  `json:"mem_bytes"`
	Omission    float64 `json:"omission,omitempty"` // the fingerprints' chance of an omission, from a million states
	Reduced     int64   `json:"reduced"`
	Workers     int     `json:"workers"`
	Covered     int     `json:"covered_depth"`
	Bound       string  `json:"bound,omitempty"`
	Beyond      int64   `json:"beyond_bound,omitempty"`
	Shortest    int64   `json:"shortest_states,omitempty"`
	Symmetry    string  `json:"symmetry,omitempty"` // the group, with --symmetry
	Exhausted   bool    `json:"exhausted"`
	Stop        string  `json:"stop,omitempty"`
	Property    string  `json:"property,omitempty"`
	Detail      string  `json:"detail,omitempty"`
	Steps       int     `json:"steps,omitempty"`
	Path        string  `json:"path,omitempty"`
	Replay      string  `json:"replay,omitempty"`
	Open        string  `json:"open,omitempty"` // the command that opens the path in the browser
	// AtEnds are the properties judged only where a path ends, on one
	// path per terminal state (statespace.Result.AtEnds).
	AtEnds []string `json:"judged_at_ends,omitempty"`
	// NeverEnds says that no run ends though the workload does, and that
	// the liveness pass searched the cycles for a promise owed for ever
	// (Live holds its figures when it found one).
	NeverEnds bool `json:"never_ends,omitempty"`
	// Cyclic is the strongly connected components with a cycle in the
	// graph the search explored (statespace.Result.Cyclic), counted when
	// a cycle could be a run that never ends (seeksCycles): with some,
	// and states where a run ends, the liveness pass looked for a cycle
	// owing a promise all the same (Live holds its figures when it found
	// one).
	Cyclic int64 `json:"cyclic_components,omitempty"`
	// Proved is exit 0: every property asked for judged over every state
	// the parameters allow. Verdict is the text report's last line, and
	// NotJudged what it says was left unjudged.
	Proved    bool     `json:"proved"`
	Verdict   string   `json:"verdict,omitempty"`
	NotJudged []string `json:"not_judged,omitempty"`

	// Live is the liveness pass's figures and lasso (--liveness).
	Live *liveReport `json:"liveness,omitempty"`
	// Messages is, with --extremes, the fewest and most messages over
	// every schedule.
	Messages *extremesReport `json:"messages,omitempty"`

	lang lang.Lang // --lang: the language of the text's verdict lines
}

// searchFlags reads the search's flags of CheckFlags into sc; its errors
// are usage errors naming the flag.
func searchFlags(c *ucli.Context, sc statespace.Config) (statespace.Config, error) {
	var err error
	if sc.Policy, err = sim.ParsePolicy(c.String("policy")); err != nil {
		return sc, cliutil.Usagef("--policy: %v", err)
	}
	if sc.Timers, err = statespace.ParseTimers(c.String("timers")); err != nil {
		return sc, cliutil.Usagef("--timers: %v", err)
	}
	sc.MaxDepth, sc.MaxStates, sc.Timeout = c.Int("max-depth"), c.Int64("max-states"), c.Duration("timeout")
	gib := c.Float64("max-memory")
	if !(gib >= 0 && gib <= 1<<20) {
		return sc, cliutil.Usagef("--max-memory must be between 0 and %d GiB, got %v", 1<<20, gib)
	}
	sc.MaxMemory = uint64(gib * (1 << 30))
	sc.Crashes, sc.Restarts, sc.Drops = c.Int("crashes"), c.Int("restarts"), c.Int("drops")
	sc.POR, sc.Exact, sc.Liveness, sc.Derived = c.Bool("por"), c.Bool("exact"), c.Bool("liveness"), c.Bool("derived")
	if sc.Workers = c.Int("workers"); sc.Workers < 0 || sc.Workers > 4096 {
		return sc, cliutil.Usagef("--workers must be between 0 (one per core) and 4096, got %d", sc.Workers)
	}
	if sc.Liveness {
		sc.POR = false
	}
	if sc.MaxFlight = c.Int("max-flight"); sc.MaxFlight < 0 || sc.MaxFlight > 255 {
		return sc, cliutil.FlagUsagef("max-flight", "--max-flight must be between 0 (none) and 255, got %d", sc.MaxFlight)
	} else if sc.MaxFlight > 0 {
		sc.POR = false // the reduction's ample sets assume a constraint on each node's own state
		sc.Bound = strings.TrimPrefix(sc.Bound+fmt.Sprintf(" and --max-flight %d", sc.MaxFlight), " and ")
	}
	if err := OneValue(c, "property", "a check looks for one property, or for every one without --property; run one check per property"); err != nil {
		return sc, err
	}
	if err := OneValue(c, "goal", "a goal search looks for one goal; run one check per goal"); err != nil {
		return sc, err
	}
	if c.IsSet("property") {
		if sc.Only, err = onlyProperty(sc, c.String("property")); err != nil {
			return sc, err
		}
	}
	switch {
	case sc.MaxDepth < 0:
		return sc, cliutil.FlagUsagef("max-depth", "--max-depth must not be negative (0: no bound), got %d", sc.MaxDepth)
	case sc.MaxStates < 0:
		return sc, cliutil.FlagUsagef("max-states", "--max-states must not be negative (0: no bound), got %d", sc.MaxStates)
	case sc.Timeout < 0:
		return sc, cliutil.FlagUsagef("timeout", "--timeout must not be negative (0: no bound), got %v", sc.Timeout)
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"crashes", sc.Crashes}, {"restarts", sc.Restarts}, {"drops", sc.Drops}} {
		if f.v < 0 || f.v > 8 {
			return sc, cliutil.FlagUsagef(f.name, "--%s must be between 0 and 8, got %d", f.name, f.v)
		}
	}
	if sc.Nodes > statespace.MaxNodes {
		return sc, tooManyNodes("an exhaustive check", sc.Nodes)
	}
	return sc, nil
}

// Check is the action of a `check` command, which Area.Command makes for
// every algorithm: it runs an exhaustive check of sys (whose Factory,
// Script and properties sc already holds) with the flags of CheckFlags,
// or, with --path, replays one path through Execute (trace, properties,
// renderers).
// Exit codes: 3 a violation (or a fair cycle on which a promise stays
// owed, a run of a workload that ends never ending), 0 proved: every
// property asked for judged over every state the parameters allow, 4 not
// proved: a bound left states unexpanded or a property went unjudged
// (verdict says which), 2 a property the flags make impossible to judge
// (judgeable), 130 interrupted (with the figures so far).
func Check(ctx context.Context, c *ucli.Context, sys engine.System, sc statespace.Config, stdout, stderr io.Writer) error {
	sys, sc, err := checkConfig(c, sys, sc, stderr)
	if err != nil {
		return err
	}
	format := c.String("format")
	if _, err := trace.NewRenderer(format, nil); err != nil {
		return cliutil.Usagef("--format: %v", err)
	}
	in, err := ParseLang(c)
	if err != nil {
		return err
	}
	base := checkReplayBase(c, sc)
	if c.Bool("serve") {
		if err := serveRefuses(c); err != nil {
			return err
		}
		return serveExplorer(ctx, c, sys, sc, base, stderr)
	}
	if c.IsSet("path") {
		return checkPath(ctx, c, sys, sc, format, base, stdout, stderr)
	}
	if sc.Goal == nil {
		if err := judgeable(sys, sc); err != nil {
			return err
		}
	}
	rep := checkReport{
		Algorithm: sys.Name, Nodes: sc.Nodes, Policy: sc.Policy.String(), Timers: sc.Timers.String(),
		POR: sc.POR, Crashes: sc.Crashes, Restarts: sc.Restarts, Drops: sc.Drops, lang: in,
	}
	// The text report's first line says what is searched: it goes out
	// before the search, so a search of minutes shows at once what it does.
	notes := stdout
	if format != "text" {
		notes = stderr
	}
	announceCheck(notes, stderr, format, sc, &rep)
	sc.Cycles = seeksCycles(sys, sc)
	res, err := searchShowing(ctx, &sc, stderr)
	if err != nil {
		return err
	}
	rep.figures(sc, res)
	if sc.Goal != nil {
		return reportGoal(ctx, sys, sc, res, rep, base, format, stdout, stderr)
	}
	if err := judgeSearch(ctx, c, sys, sc, &res, &rep, base, stderr); err != nil {
		return err
	}
	writeCheckReport(stdout, notes, format, rep)
	if err := ctx.Err(); err != nil {
		// Ctrl-C after the search, in the extremes' pass: what was
		// computed is printed, and the run was still interrupted (130)
		return err
	}
	return checkExit(ctx, sys, sc, res, rep, format, stdout, stderr)
}

// checkConfig reads the search's flags into sc and readies sys for the
// check: a System without end asks for no termination, and the terminal
// verdicts name nodes as the run's text and pictures do.
func checkConfig(c *ucli.Context, sys engine.System, sc statespace.Config, stderr io.Writer) (engine.System, statespace.Config, error) {
	sc, err := searchFlags(c, sc)
	if err != nil {
		return sys, sc, err
	}
	if sc, err = stageFlags(c, sys, sc); err != nil {
		return sys, sc, err
	}
	if sc, err = symmetryFlag(c, sys, sc, stderr); err != nil {
		return sys, sc, err
	}
	if sys.Endless != "" {
		sys, sc = withoutTermination(sys, sc)
	}
	if checks := sc.Checks; checks != nil && sys.Names != nil {
		sc.Checks = func() []check.Property {
			cs := checks()
			check.NewSet(cs...).SetNames(sys.Names)
			return cs
		}
	}
	return sys, sc, nil
}

// checkReplayBase is the command line that repeats the check without the
// flags of one answer (--path, --format, the bounds): the base of every
// replay and --serve command the check prints.
func checkReplayBase(c *ucli.Context, sc statespace.Config) string {
	base := strings.TrimSuffix(Replay(c, 0, "path", "format", "max-depth", "max-states", "max-memory", "timeout", "exact", "por", "property",
		"serve", "addr", "explore-states", "explore-time", "goal", "extremes", "symmetry"), " --seed 0")
	if !sc.POR && sc.Goal == nil {
		base += " --por=false"
	}
	return base
}

// checkPath replays the path (or lasso) given with --path instead of
// searching.
func checkPath(ctx context.Context, c *ucli.Context, sys engine.System, sc statespace.Config, format, base string, stdout, stderr io.Writer) error {
	if strings.TrimSpace(c.String("path")) == "" {
		return cliutil.Usagef("--path is empty: give the labels of a path a check printed, e.g. --path c2,d2-1")
	}
	path, cycle, err := statespace.ParseLasso(c.String("path"), sc.Nodes)
	if err != nil {
		return cliutil.Usagef("--path: %v", err)
	}
	if dryRun(c) {
		return nil
	}
	in, _ := ParseLang(c) // Check has read it
	if cycle != nil {
		l := &statespace.Lasso{Prefix: path, Cycle: cycle}
		return replayLasso(ctx, sys, sc, l, format, in, base+" --path '"+l.String()+"'", stdout, stderr)
	}
	return replayPath(ctx, sys, sc, path, format, in, base+" --path "+statespace.FormatPath(path), stdout, stderr)
}

// announceCheck writes, before the search, what is searched (to notes,
// but for --format json) and which asks run on one worker (to stderr).
func announceCheck(notes, stderr io.Writer, format string, sc statespace.Config, rep *checkReport) {
	if format != "json" {
		writeCheckHead(notes, *rep)
		if sc.Liveness {
			fmt.Fprintf(notes, "liveness: judged over cycles under %s\n", statespace.Fairness)
		}
		if sc.Symmetry != nil {
			desc := sc.Symmetry.String()
			if sc.Symmetry.Rotations {
				desc += fmt.Sprintf(" (%d nodes)", sc.Nodes)
			}
			fmt.Fprintf(notes, "symmetry: %s, one state per orbit, on one worker\n", desc)
		}
	}
	if sc.Symmetry != nil {
		rep.Symmetry = sc.Symmetry.String()
	}
	if sc.Workers > 1 && sc.Symmetry != nil {
		fmt.Fprintf(stderr, "--workers %d: --symmetry searches on one worker\n", sc.Workers)
	}
	if sc.Workers > 1 && (sc.Liveness || sc.Goal != nil) {
		fmt.Fprintf(stderr, "--workers %d: %s searches on one worker\n", sc.Workers, map[bool]string{true: "--liveness", false: "--goal"}[sc.Liveness])
	}
}

// searchShowing runs the search with a progress line on stderr, which
// stays in sc.Progress for the passes after it.
func searchShowing(ctx context.Context, sc *statespace.Config, stderr io.Writer) (statespace.Result, error) {
	bar := newProgress(stderr, -1, "states")
	sc.Progress = func(p statespace.Progress) {
		bar.describe(progressLine(p, *sc))
		bar.set(p.Distinct)
	}
	res, err := statespace.Search(ctx, *sc)
	bar.done()
	return res, err
}

// figures copies the search's figures into the report.
func (rep *checkReport) figures(sc statespace.Config, res statespace.Result) {
	rep.Explored, rep.Distinct, rep.Transitions, rep.Terminal = res.Explored, res.Distinct, res.Transitions, res.Terminal
	rep.Depth, rep.Seconds, rep.PerSecond, rep.MemBytes = res.Depth, res.Elapsed.Seconds(), res.StatesPerSecond(), res.MemBytes
	rep.Reduced, rep.Shortest, rep.Bound, rep.Beyond = res.Reduced, res.ShortestStates, sc.Bound, res.Beyond
	rep.Exhausted, rep.Stop, rep.Workers, rep.Covered = res.Exhausted, res.Stop, res.Workers, res.Covered
	for _, id := range res.AtEnds {
		rep.AtEnds = append(rep.AtEnds, string(id))
	}
	if !sc.Exact && res.Distinct >= 1e6 {
		rep.Omission = statespace.Omission(res.Distinct)
	}
}

// judgeSearch gives the report its verdict on the search's result: the
// violation and its replay, the liveness judged over cycles, a fair cycle
// on which a promise stays owed (which becomes res's lasso), what stays
// unjudged, and the extremes' figures when asked.
func judgeSearch(ctx context.Context, c *ucli.Context, sys engine.System, sc statespace.Config, res *statespace.Result, rep *checkReport, base string, stderr io.Writer) error {
	if v := res.Violation; v != nil {
		rep.Property, rep.Detail, rep.Steps = string(v.Property), v.Detail, len(res.Path)
		rep.Path = statespace.FormatPath(res.Path)
		rep.Replay = base + " --path " + rep.Path
		rep.Open = serveCommand(base) + " --path " + rep.Path
	}
	if sc.Liveness {
		rep.Live = newLiveReport(sc, *res, base, sys.Names)
	}
	lsc, lres, cycles, err := owedCycle(ctx, sys, sc, *res)
	if err != nil {
		return err
	}
	var cyc *statespace.Result
	if rep.NeverEnds, rep.Cyclic = cycles && res.Terminal == 0, res.Cyclic; cycles {
		cyc = &lres
	}
	if cycles && lres.Lasso != nil {
		res.Lasso = lres.Lasso
		rep.Live = newLiveReport(lsc, lres, base, sys.Names)
	}
	if res.Violation == nil && res.Lasso == nil {
		rep.Verdict, rep.NotJudged = verdict(rep.lang, sys, sc, *res, rep.Live, cyc)
		rep.Proved = rep.NotJudged == nil
	}
	if limit := extremesWanted(c, *res); limit > 0 && sc.MaxFlight == 0 { // the extremes' pass knows no bound on links
		rep.Messages = extremes(ctx, sys, sc, limit, c.IsSet("extremes"), stderr)
	}
	return nil
}

// writeCheckReport writes the report: one JSON line for --format json;
// else the text, to stdout for --format text and to notes (stderr) for a
// picture, which keeps stdout clean.
func writeCheckReport(stdout, notes io.Writer, format string, rep checkReport) {
	if format == "json" {
		b, _ := json.Marshal(rep)
		fmt.Fprintf(stdout, "%s\n", b)
		return
	}
	writeCheck(notes, rep)
	if rep.Messages != nil {
		writeExtremes(notes, rep.Messages)
	}
	if rep.Verdict != "" {
		fmt.Fprintln(notes, rep.Verdict)
	}
}

// checkExit shows the counterexample (the path to a violation, or the
// lasso) and returns the check's exit: a violation (3), a lasso on which a
// promise stays owed, interrupted (130), not proved (4), or nil: proved.
func checkExit(ctx context.Context, sys engine.System, sc statespace.Config, res statespace.Result, rep checkReport, format string, stdout, stderr io.Writer) error {
	picture := format != "text" && format != "json" && format != "none"
	if res.Violation == nil && res.Lasso != nil {
		return reportLasso(ctx, sys, sc, res.Lasso, rep, format, stdout, stderr)
	}
	if picture && res.Violation == nil {
		fmt.Fprintf(stderr, "no counterexample, so no %s picture: a check draws the path to a violation (or the path given with --path)\n", format)
	}
	if res.Violation != nil {
		if format == "text" || picture {
			if format == "text" {
				fmt.Fprintln(stdout)
			}
			err := replayPath(ctx, sys, sc, res.Path, format, rep.lang, rep.Replay, stdout, stderr)
			if cliutil.Code(err) != cliutil.ExitViolation && cliutil.Code(err) != cliutil.ExitNoTermination && err != nil {
				return err
			}
		}
		return &run.Violation{Property: rep.Property, Detail: rep.Detail, Replay: rep.Replay}
	}
	switch {
	case res.Stop == "interrupted":
		return ctx.Err()
	case !rep.Proved:
		return cliutil.NoTerminationf("%s", rep.Verdict)
	}
	return nil
}

// serveRefuses refuses the flags the browser page cannot honour with
// --serve: it judges no liveness over cycles and searches for no goal,
// and silently leaving them out would answer another question.
func serveRefuses(c *ucli.Context) error {
	switch {
	case c.Bool("liveness"):
		return cliutil.FlagUsagef("liveness", "--serve with --liveness: the page judges no liveness over cycles; run the check with --liveness alone, then open the lasso it prints with --serve --path 'PREFIX|CYCLE'")
	case c.IsSet("goal"):
		return cliutil.FlagUsagef("goal", "--serve with --goal: the page searches for no goal; run the check with --goal alone, then open the path it prints with --serve --path LABELS")
	}
	return nil
}

// serveCommand is the check command base with --serve, which opens a path
// in the browser: without --liveness, which the page refuses (it opens
// the path, it judges nothing over cycles).
func serveCommand(base string) string {
	words := strings.Split(base, " ")
	return strings.Join(slices.DeleteFunc(words, func(w string) bool { return w == "--liveness" }), " ") + " --serve"
}

// tooManyNodes refuses --nodes n past statespace.MaxNodes, for what
// (an exhaustive check, vet) searches states that keep node sets in
// 64-bit masks.
func tooManyNodes(what string, n int) error {
	return cliutil.FlagUsagef("nodes", "--nodes %d: %s takes at most %d nodes (its states keep sets of nodes in 64 bits)", n, what, statespace.MaxNodes)
}

// onlyProperty is the property --property names among those sc judges (a
// usage error listing them if it names none): the search then reports
// violations of it alone.
func onlyProperty(sc statespace.Config, name string) (check.ID, error) {
	cs := []check.Property{check.Termination{}}
	if sc.Checks != nil {
		cs = sc.Checks()
	}
	sel, err := restrict(cs, []string{name})
	if err != nil {
		return "", err
	}
	return sel[0].ID(), nil
}

// writeCheckHead writes the first line of the text report: what is checked.
func writeCheckHead(w io.Writer, r checkReport) {
	faults := "none"
	if r.Crashes+r.Restarts+r.Drops > 0 {
		faults = fmt.Sprintf("up to %d crashes, %d restarts, %d drops", r.Crashes, r.Restarts, r.Drops)
	}
	por := "on"
	if !r.POR {
		por = "off"
	}
	fmt.Fprintf(w, "exhaustive check of %s: %d nodes, policy %s, timers %s, partial-order reduction %s, faults: %s\n",
		r.Algorithm, r.Nodes, r.Policy, r.Timers, por, faults)
}

// writeCheck writes the rest of the text report: the figures and the result.
func writeCheck(w io.Writer, r checkReport) {
	fmt.Fprintf(w, "states: %d distinct, %d explored (%d by an ample set), %d transitions, %d terminal; depth %d\n",
		r.Distinct, r.Explored, r.Reduced, r.Transitions, r.Terminal, r.Depth)
	if r.Bound != "" {
		fmt.Fprintf(w, "state constraint %s: %d distinct states beyond it, not expanded\n", r.Bound, r.Beyond)
	}
	workers := ""
	if r.Workers > 1 {
		workers = fmt.Sprintf(", %d workers", r.Workers)
	}
	fmt.Fprintf(w, "time: %.3fs, %.0f distinct states/s%s, memory %.1f MiB\n", r.Seconds, r.PerSecond, workers, float64(r.MemBytes)/(1<<20))
	if r.Omission > 0 {
		fmt.Fprintf(w, "fingerprints: the chance that two states shared one, leaving states unexplored, is about %.0e (--exact rules it out)\n", r.Omission)
	}
	switch {
	case r.Live == nil:
	case r.NeverEnds:
		fmt.Fprintln(w, "no run ends: no path reaches a state where the run is over, though the workload ends; the liveness pass looked for a fair cycle on which a promise stays owed, without the reduction")
	case r.Cyclic > 0:
		fmt.Fprintf(w, "some runs may not end: the graph searched has %d strongly connected components with a cycle, though the workload ends; the liveness pass looked for a fair cycle on which a promise stays owed, without the reduction\n", r.Cyclic)
	}
	if r.Live != nil {
		writeLive(w, r)
	}
	switch {
	case r.Property != "":
		if r.Shortest > 0 {
			fmt.Fprintf(w, "shortest path: searched again without the ample sets, to the depth found (%d distinct states)\n", r.Shortest)
		}
		fmt.Fprintln(w, r.lang.T("check.violation", r.lang.Property(r.Property), r.Steps, r.lang.Detail(r.Detail)))
		fmt.Fprintf(w, "path: %s\nreplay: %s\nin the browser: %s\n", r.Path, r.Replay, r.Open)
	case r.Live != nil && r.Live.Property != "":
		fmt.Fprintln(w, r.lang.T("check.liveViolation", r.lang.Property(r.Live.Property), r.lang.Detail(r.Live.Detail)))
		fmt.Fprintf(w, "prefix: %s\ncycle: %s\npath: %s\nreplay: %s\n", r.Live.Prefix, r.Live.Cycle, r.Live.Path, r.Live.Replay)
	case r.Exhausted:
		within := ""
		if r.Bound != "" {
			within = r.lang.T("check.within", r.Bound)
		}
		fmt.Fprintln(w, r.lang.T("check.exhausted", within))
		writeAtEnds(w, r)
	default:
		fmt.Fprintln(w, r.lang.T("check.stopped", r.Stop))
		fmt.Fprintln(w, r.lang.T("check.covered", r.Covered))
		writeAtEnds(w, r)
	}
}

// writeAtEnds says which properties a search without a violation judged
// only where a path ends: its "no violation" holds for them on one path
// to each terminal state, or, with none, not at all.
// Those the liveness pass judged over cycles are left out.
func writeAtEnds(w io.Writer, r checkReport) {
	ids := r.AtEnds
	if r.Live != nil {
		ids = slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return slices.Contains(r.Live.Properties, id) })
	}
	switch {
	case len(ids) == 0:
	case r.Terminal == 0:
		fmt.Fprintln(w, r.lang.T("check.atEndsNone", r.lang.Properties(ids)))
	default:
		fmt.Fprintln(w, r.lang.T("check.atEnds", r.lang.Properties(ids)))
	}
}

// replayPath runs one path through Execute: the same properties,
// renderers and exit codes as a run.
func replayPath(ctx context.Context, sys engine.System, sc statespace.Config, path []statespace.Trans, format string, l lang.Lang, replay string, stdout, stderr io.Writer) error {
	_, err := executePath(ctx, sys, run.Path{Config: sc, Steps: path}, format, l, replay, stdout, stderr)
	// A check's verdict on a path is a violation (exit 3), as the search's
	// is, even of a liveness property: the path ends in the state judged.
	if v, ok := errors.AsType[*run.Violation](err); ok && v.Liveness {
		safety := *v
		safety.Liveness = false
		return &safety
	}
	return err
}

// executePath runs a path or a lasso through Execute; a path it cannot
// take is the --path flag's error (exit 2).
func executePath(ctx context.Context, sys engine.System, p run.Path, format string, l lang.Lang, replay string, stdout, stderr io.Writer) (run.Outcome, error) {
	o, err := Execute(ctx, sys, Options{Runtime: p.Name(), Format: format, Custom: p, Lang: l}, replay, stdout, stderr)
	if bad, ok := errors.AsType[*run.BadPath](err); ok {
		return o, cliutil.Usagef("--path: %v", bad.Err)
	}
	return o, err
}
