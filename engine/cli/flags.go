package cli

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/lang"
	"ringlab/engine/live"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// Flags returns the engine flags shared by every algorithm command.
func Flags() []ucli.Flag {
	return append([]ucli.Flag{
		&ucli.StringFlag{Name: "runtime", Value: "sim", Usage: "sim (deterministic, virtual time), live (goroutines in real time; see --scheduler) or amqp (every message through a RabbitMQ broker)"},
		&ucli.StringFlag{Name: "scheduler", Value: "turns", Usage: "live: turns (a node runs only while it has work, on one of a few goroutines: up to a million nodes) or plain (one goroutine and one inbox channel per node, the code to read first; slow and memory-hungry beyond 100,000 nodes)"},
		&ucli.StringFlag{Name: "url", Value: amqpURL, Usage: "amqp: the broker's `URL`"},
		&ucli.Uint64Flag{Name: "seed", DefaultText: "drawn and printed on stderr", Usage: "seed of the simulator's choices"},
		&ucli.StringFlag{Name: "format", Value: "text", Usage: trace.FormatUsage},
		&ucli.StringFlag{Name: "out", Usage: "write the rendered output to `FILE` instead of standard output (the summary goes to stderr)"},
		&ucli.StringFlag{Name: "events", Usage: "also write the NDJSON event log to `FILE`"},
		&ucli.StringFlag{Name: "policy", Value: "fifo", Usage: "sim delivery order: fifo (per link) or random (messages may overtake)"},
		&ucli.StringFlag{Name: "latency", Value: "1", Usage: "sim message latency in ticks: N or MIN-MAX (uniform); under --policy random the default is 1-10, and a single N is refused (messages overtake only when latencies differ)"},
		&ucli.Float64Flag{Name: "drop", Usage: "sim: probability that a message is lost, in [0,1]"},
		&ucli.Float64Flag{Name: "dup", Usage: "sim: probability that a message is duplicated, in [0,1]"},
		&ucli.StringSliceFlag{Name: "crash", Usage: "crash-stop node I at tick T: `I@T` (repeatable)"},
		&ucli.StringSliceFlag{Name: "restart", Usage: "restart node I with its state lost (amnesia) at tick T, after an earlier --crash of I: `I@T` (repeatable)"},
		RepeatedFlag("partition", "sim: cut nodes off from the rest from tick A until B: `I,J,...@A-B` (repeatable)"),
		&ucli.StringSliceFlag{Name: "slow", Usage: "sim: delay every message to node I by X ticks from A until B: `I+X@A-B` (repeatable)"},
		&ucli.Int64Flag{Name: "max-steps", Value: 50_000_000, Usage: "sim step budget; a run that needs more does not terminate (exit 4)"},
		&ucli.DurationFlag{Name: "tick", Value: time.Millisecond, Usage: "live: wall-clock length of one tick"},
		&ucli.DurationFlag{Name: "timeout", Value: time.Minute, DefaultText: "1m per 100,000 nodes, at least 1m", Usage: "wall-clock budget of the run (either runtime): a run still going after this does not terminate (exit 4)"},
		&ucli.BoolFlag{Name: "vc", Usage: "add vector clocks to events (sim and live; live adds them anyway when a checker judges by happens-before) and show them, with the Lamport clock, in the text output (O(n) per event)"},
		&ucli.StringFlag{Name: "schedule", Usage: "sim: replay a schedule printed by explore (`I:V,...`: decision I takes V, all others the default; indices once each; not with explore)"},
	}, ServeFlags()...)
}

// LangFlag is --lang, the language of the verdict lines of a run or a
// check and of the pages they serve (package lang).
func LangFlag() ucli.Flag {
	return &ucli.StringFlag{Name: "lang", Value: "en", Usage: "language of the verdict lines and of the browser page: " + lang.Names}
}

// WithLang is fs and LangFlag, unless fs has a flag named lang already
// (an algorithm's own --lang, as the ring election's, which takes the
// same languages and then sets both).
func WithLang(fs []ucli.Flag) []ucli.Flag {
	for _, f := range fs {
		if slices.Contains(f.Names(), "lang") {
			return fs
		}
	}
	return append(fs, LangFlag())
}

// ParseLang reads --lang, English where the command has no such flag; an
// unknown language is a usage error naming the flag and the languages.
func ParseLang(c *ucli.Context) (lang.Lang, error) {
	s := c.String("lang")
	if s == "" && !c.IsSet("lang") {
		return lang.EN, nil
	}
	l, err := lang.Parse(s)
	if err != nil {
		return l, cliutil.FlagUsagef("lang", "--lang: %v", err)
	}
	return l, nil
}

// Options are the parsed engine flags.
type Options struct {
	Runtime      string         // --runtime: "sim", "live" or "amqp"
	URL          string         // --runtime amqp: the broker
	Seed         uint64         // --seed, or the seed drawn when it was not given
	SeedDrawn    bool           // the seed was drawn, not given
	Format       string         // --format: one of trace.Formats
	Events       string         // --events: write the NDJSON log to this file
	Out          string         // the rendered output goes to this file, not stdout
	Policy       sim.Policy     // --policy: the simulator's delivery order
	Latency      sim.Delay      // --latency: the simulator's message delay
	Faults       sim.Faults     // --drop, --dup, --partition, --slow
	Script       []node.Action  // crashes and restarts
	MaxSteps     int64          // --max-steps: the simulator's step budget
	Tick         time.Duration  // --tick: a tick's wall duration on goroutines and RabbitMQ
	Scheduler    live.Scheduler // --runtime live: plain or turns
	Timeout      time.Duration  // --timeout: the run's wall-time bound; zero: none
	VectorClocks bool           // --vc: vector clocks on every event
	Schedule     []int64        // sim decisions to replay (explore's shrunk schedules)
	Serving      Serving        // --serve: show the run in the browser afterwards
	Intro        string         // printed on stdout before the run's first line, once its flags have all been accepted
	Custom       engine.Runtime // runs the System instead of the runtime the flags name (a saved log, a checked path)
	DryRun       bool           // build the run but run nothing (the app was marked by DryRun)
	Lang         lang.Lang      // --lang: the language of the verdict lines and of the served page
}

// dryRunKey marks, in an app's Metadata, an app made by DryRun.
const dryRunKey = "ringlab/dry-run"

// DryRun makes the commands of app check their flags and build their runs
// but run nothing: Execute returns at once with no output, and explore
// tries no schedule. Tests use it to check that documented command lines
// parse.
func DryRun(app *ucli.App) *ucli.App {
	if app.Metadata == nil {
		app.Metadata = map[string]any{}
	}
	app.Metadata[dryRunKey] = true
	return app
}

// dryRun reports whether c's app was made by DryRun.
func dryRun(c *ucli.Context) bool { return c.App != nil && c.App.Metadata[dryRunKey] == true }

// Parse reads the engine flags for a run of n nodes. Its errors are usage
// errors (exit 2) naming the flag.
func Parse(c *ucli.Context, n int) (Options, error) {
	o := Options{
		Runtime:      c.String("runtime"),
		URL:          c.String("url"),
		Seed:         c.Uint64("seed"),
		Format:       c.String("format"),
		Events:       c.String("events"),
		Out:          c.String("out"),
		MaxSteps:     c.Int64("max-steps"),
		Tick:         c.Duration("tick"),
		Timeout:      c.Duration("timeout"),
		VectorClocks: c.Bool("vc"),
		Serving:      ParseServe(c),
		DryRun:       dryRun(c),
	}
	if !c.IsSet("timeout") {
		o.Timeout = DefaultTimeout(n)
	}
	if !c.IsSet("seed") {
		o.Seed, o.SeedDrawn = rand.Uint64N(1<<32), true
	}
	if err := parseRuntime(c, &o); err != nil {
		return o, err
	}
	var err error
	if o.Lang, err = ParseLang(c); err != nil {
		return o, err
	}
	if _, err := trace.NewRenderer(o.Format, nil); err != nil {
		return o, cliutil.Usagef("--format: %v", err)
	}
	if cliutil.SameFile(o.Out, o.Events) {
		return o, cliutil.Usagef("--out %s and --events %s are the same file: the rendered output and the NDJSON log would overwrite each other; give two files", o.Out, o.Events)
	}
	if err := parseFaults(c, n, &o); err != nil {
		return o, err
	}
	switch {
	case o.MaxSteps < 1:
		return o, cliutil.Usagef("--max-steps must be at least 1, got %d", o.MaxSteps)
	case o.Tick <= 0:
		return o, cliutil.Usagef("--tick must be positive, got %v", o.Tick)
	case o.Timeout <= 0:
		return o, cliutil.Usagef("--timeout must be positive, got %v", o.Timeout)
	}
	return o, runtimeOnly(c, o)
}

// DefaultTimeout is --timeout when it is not given, for a run of n nodes:
// a minute per 100,000 nodes, at least a minute. A fixed budget cut
// correct runs short at scale: a million-node election on the goroutine
// runtime takes 7 to 13 s on a busy 2-core machine, and was cut at a
// minute when each node had a goroutine and a channel of its own.
func DefaultTimeout(n int) time.Duration {
	return max(time.Minute, time.Duration(n)*time.Minute/100_000)
}

// parseRuntime checks the runtime --runtime names, the broker's flags and
// the live runtime's --scheduler.
func parseRuntime(c *ucli.Context, o *Options) error {
	if o.Runtime != "sim" && o.Runtime != "live" && o.Runtime != "amqp" {
		return cliutil.Usagef("--runtime: unknown runtime %q (want sim, live or amqp)", o.Runtime)
	}
	if err := checkAMQP(c, *o); err != nil {
		return err
	}
	if c.IsSet("scheduler") && o.Runtime != "live" {
		return cliutil.Usagef("--scheduler only applies to --runtime live")
	}
	s, err := live.ParseScheduler(c.String("scheduler"))
	if err != nil {
		return cliutil.Usagef("--scheduler: %v", err)
	}
	o.Scheduler = s
	return nil
}

// parseFaults reads the simulator's delivery order and latency and the
// faults of a run of n nodes: drops, duplicates, the crashes and restarts
// of the script, partitions, slow links, and a schedule to replay.
func parseFaults(c *ucli.Context, n int, o *Options) error {
	var err error
	if o.Policy, err = sim.ParsePolicy(c.String("policy")); err != nil {
		return cliutil.Usagef("--policy: %v", err)
	}
	if o.Latency, err = ParseLatency(c.String("latency")); err != nil {
		return cliutil.Usagef("--latency: %v", err)
	}
	if o.Policy == sim.PolicyRandom && c.IsSet("latency") && o.Latency.Min == o.Latency.Max {
		return cliutil.Usagef("--latency %d with --policy random: every message would take %d ticks and none could overtake another; give a range such as --latency %d-%d", o.Latency.Min, o.Latency.Min, o.Latency.Min, o.Latency.Min+9)
	}
	o.Faults.Drop, o.Faults.Dup = c.Float64("drop"), c.Float64("dup")
	for _, p := range []struct {
		name string
		v    float64
	}{{"--drop", o.Faults.Drop}, {"--dup", o.Faults.Dup}} {
		if !(p.v >= 0 && p.v <= 1) {
			return cliutil.Usagef("%s must be a probability in [0,1], got %v", p.name, p.v)
		}
	}
	if o.Script, err = ParseScript(c, n); err != nil {
		return err
	}
	if err := checkScript(o.Script); err != nil {
		return err
	}
	for _, s := range Values(c, "partition") {
		p, err := parsePartition(s, n)
		if err != nil {
			return cliutil.Usagef("--partition %q: %v", s, err)
		}
		o.Faults.Partitions = append(o.Faults.Partitions, p)
	}
	for _, s := range c.StringSlice("slow") {
		sl, err := parseSlow(s, n)
		if err != nil {
			return cliutil.Usagef("--slow %q: %v", s, err)
		}
		o.Faults.Slow = append(o.Faults.Slow, sl)
	}
	if c.IsSet("schedule") {
		if o.Schedule, err = ParseSchedule(c.String("schedule")); err != nil {
			return cliutil.Usagef("--schedule: %v", err)
		}
	}
	return nil
}

// runtimeOnly refuses a flag given to a runtime it does not apply to:
// vector clocks over RabbitMQ, a simulator setting off the simulator, a
// tick on it.
func runtimeOnly(c *ucli.Context, o Options) error {
	if o.Runtime == "amqp" && c.IsSet("vc") {
		return cliutil.Usagef("--vc: vector clocks come from the simulator and the live runtime; use --runtime sim or live")
	}
	if o.Runtime != "sim" {
		for _, f := range []string{"policy", "latency", "drop", "dup", "partition", "slow", "max-steps", "schedule"} {
			if c.IsSet(f) {
				return cliutil.Usagef("--%s is a simulator fault or setting; use it with --runtime sim", f)
			}
		}
	} else if c.IsSet("tick") {
		return cliutil.Usagef("--tick only applies to --runtime live or amqp")
	}
	return nil
}

// ParseScript reads the crashes and restarts of --crash and --restart for
// a run of n nodes, in the order given (Parse also checks that they do
// not contradict each other).
func ParseScript(c *ucli.Context, n int) ([]node.Action, error) {
	var script []node.Action
	for _, kind := range []struct {
		flag string
		cmd  node.Cmd
	}{{"crash", node.CmdCrash}, {"restart", node.CmdRestart}} {
		for _, s := range c.StringSlice(kind.flag) {
			i, t, err := parseAt(s, n)
			if err != nil {
				return nil, cliutil.Usagef("--%s %q: %v", kind.flag, s, err)
			}
			script = append(script, node.Action{At: t, Node: i, Cmd: kind.cmd})
		}
	}
	return script, nil
}

// checkScript refuses crashes and restarts that contradict each other or do
// nothing: a node must be up to crash and down to restart, and a restart
// comes strictly after its crash.
func checkScript(script []node.Action) error {
	acts := slices.Clone(script)
	slices.SortStableFunc(acts, func(a, b node.Action) int {
		if a.Node != b.Node {
			return a.Node - b.Node
		}
		if a.At != b.At {
			return int(min(max(a.At-b.At, -1), 1))
		}
		return strings.Compare(string(a.Cmd), string(b.Cmd)) // "crash" before "restart"
	})
	down := map[int]int64{} // node -> tick of its crash
	for _, a := range acts {
		t, isDown := down[a.Node]
		switch a.Cmd {
		case node.CmdCrash:
			if isDown {
				return cliutil.Usagef("--crash %d@%d: node %d is down since its crash at tick %d (add a --restart between them)", a.Node, a.At, a.Node, t)
			}
			down[a.Node] = a.At
		case node.CmdRestart:
			switch {
			case !isDown:
				return cliutil.Usagef("--restart %d@%d: node %d has no earlier --crash to recover from", a.Node, a.At, a.Node)
			case t == a.At:
				return cliutil.Usagef("--restart %d@%d: at the same tick as its crash; restart it at a later tick", a.Node, a.At)
			}
			delete(down, a.Node)
		}
	}
	return nil
}

// ParseLatency reads --latency: N or MIN-MAX ticks.
func ParseLatency(s string) (sim.Delay, error) {
	lo, hi, found := strings.Cut(s, "-")
	a, err1 := strconv.ParseInt(strings.TrimSpace(lo), 10, 64)
	b := a
	var err2 error
	if found {
		b, err2 = strconv.ParseInt(strings.TrimSpace(hi), 10, 64)
	}
	if err1 != nil || err2 != nil {
		return sim.Delay{}, fmt.Errorf("want N or MIN-MAX in ticks, got %q", s)
	}
	if a < 1 || b < a || b > 1_000_000 {
		return sim.Delay{}, fmt.Errorf("want 1 <= MIN <= MAX <= 1000000, got %q", s)
	}
	return sim.Delay{Min: a, Max: b}, nil
}

// parseAt reads "I@T".
func parseAt(s string, n int) (int, int64, error) {
	is, ts, ok := strings.Cut(s, "@")
	if !ok {
		return 0, 0, fmt.Errorf("want NODE@TICK")
	}
	i, err := parseNode(is, n)
	if err != nil {
		return 0, 0, err
	}
	t, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || t < 0 {
		return 0, 0, fmt.Errorf("tick must be a whole number >= 0, got %q", ts)
	}
	return i, t, nil
}

func parseNode(s string, n int) (int, error) {
	i, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || i < 1 || i > n {
		return 0, fmt.Errorf("node must be an index in 1..%d, got %q", n, s)
	}
	return i, nil
}

func parseWindow(s string) (int64, int64, error) {
	as, bs, ok := strings.Cut(s, "-")
	a, err1 := strconv.ParseInt(as, 10, 64)
	b, err2 := strconv.ParseInt(bs, 10, 64)
	if !ok || err1 != nil || err2 != nil || a < 0 || b <= a {
		return 0, 0, fmt.Errorf("want a window FROM-UNTIL in ticks with FROM < UNTIL, got %q", s)
	}
	return a, b, nil
}

// parsePartition reads "I,J,...@A-B".
func parsePartition(s string, n int) (sim.Partition, error) {
	ns, ws, ok := strings.Cut(s, "@")
	if !ok {
		return sim.Partition{}, fmt.Errorf("want NODES@FROM-UNTIL")
	}
	var p sim.Partition
	seen := map[int]bool{}
	for _, f := range strings.Split(ns, ",") {
		i, err := parseNode(f, n)
		if err != nil {
			return p, err
		}
		if seen[i] {
			return p, fmt.Errorf("node %d is listed twice", i)
		}
		seen[i] = true
		p.Group = append(p.Group, i)
	}
	var err error
	p.From, p.Until, err = parseWindow(ws)
	return p, err
}

// parseSlow reads "I+X@A-B".
func parseSlow(s string, n int) (sim.Slow, error) {
	head, ws, ok := strings.Cut(s, "@")
	is, xs, ok2 := strings.Cut(head, "+")
	if !ok || !ok2 {
		return sim.Slow{}, fmt.Errorf("want NODE+EXTRA@FROM-UNTIL")
	}
	i, err := parseNode(is, n)
	if err != nil {
		return sim.Slow{}, err
	}
	x, err := strconv.ParseInt(xs, 10, 64)
	if err != nil || x < 1 || x > 1_000_000 {
		return sim.Slow{}, fmt.Errorf("extra delay must be 1..1000000 ticks, got %q", xs)
	}
	sl := sim.Slow{Node: i, Extra: x}
	sl.From, sl.Until, err = parseWindow(ws)
	return sl, err
}

// Repeated is the value of a repeatable flag that keeps each value whole:
// urfave/cli's StringSliceFlag splits values on commas, and a partition's
// node list is written with commas.
type Repeated struct{ list []string }

// Set adds one value.
func (r *Repeated) Set(s string) error { r.list = append(r.list, s); return nil }

// String lists the values for help texts.
func (r *Repeated) String() string { return strings.Join(r.list, " ") }

// Get returns the values, as flag.Getter.
func (r *Repeated) Get() any { return slices.Clone(r.list) }

// RepeatedFlag is a repeatable flag whose values are kept whole (see
// Repeated); read it with Values. Each call returns a fresh flag.
func RepeatedFlag(name, usage string) *ucli.GenericFlag {
	return &ucli.GenericFlag{Name: name, Usage: usage, Value: &Repeated{}}
}

// Values returns the values given to a RepeatedFlag, in order.
func Values(c *ucli.Context, name string) []string {
	if r, ok := c.Generic(name).(*Repeated); ok {
		return slices.Clone(r.list)
	}
	return nil
}

// Single is the value of a flag that takes one value: urfave/cli's
// StringFlag keeps the last of a repeated flag without a word, and
// --property a --property b would look as if both were asked for. It
// keeps every value given so that OneValue can refuse a repetition; as a
// string it is the last.
type Single struct{ list []string }

// Set adds one value.
func (s *Single) Set(v string) error { s.list = append(s.list, v); return nil }

// String is the value given last ("": none).
func (s *Single) String() string {
	if len(s.list) == 0 {
		return ""
	}
	return s.list[len(s.list)-1]
}

// Get returns String, as flag.Getter.
func (s *Single) Get() any { return s.String() }

// SingleFlag is a flag that takes one value, refused when repeated (see
// OneValue); read it with c.String. Each call returns a fresh flag.
func SingleFlag(name, usage string) *ucli.GenericFlag {
	return &ucli.GenericFlag{Name: name, Usage: usage, Value: &Single{}}
}

// OneValue refuses a SingleFlag given more than once, saying why it takes
// one value.
func OneValue(c *ucli.Context, name, why string) error {
	s, ok := c.Generic(name).(*Single)
	if !ok || len(s.list) < 2 {
		return nil
	}
	return cliutil.FlagUsagef(name, "--%s is given %d times (%s): %s", name, len(s.list), strings.Join(s.list, ", "), why)
}

// Replay returns the command line that repeats this run: the command's
// path, every flag the user set, and the seed. A run on goroutines (--runtime
// live or amqp) follows the Go scheduler, which no seed repeats: its line
// runs it again, with no --seed (trace.ReplayNote says so where it is shown).
// Flags named in skip are left out.
func Replay(c *ucli.Context, seed uint64, skip ...string) string {
	parts := strings.Fields(c.Command.HelpName) // "ringlab election ring"
	for _, f := range c.Command.Flags {
		name := f.Names()[0]
		if name == "seed" || name == "out" || !c.IsSet(name) || slices.Contains(skip, name) {
			continue
		}
		switch v := c.Value(name).(type) {
		case ucli.StringSlice:
			for _, s := range v.Value() {
				parts = append(parts, "--"+name, quote(s))
			}
		case []string: // a RepeatedFlag
			for _, s := range v {
				parts = append(parts, "--"+name, quote(s))
			}
		case bool:
			if v {
				parts = append(parts, "--"+name)
			} else { // set false: a flag whose default is true
				parts = append(parts, "--"+name+"=false")
			}
		default:
			parts = append(parts, "--"+name, quote(flagText(name, v)))
		}
	}
	if rt := c.String("runtime"); rt == "live" || rt == "amqp" {
		return strings.Join(parts, " ")
	}
	return strings.Join(append(parts, "--seed", strconv.FormatUint(seed, 10)), " ")
}

// quote writes s as one shell word (cliutil.Quote).
func quote(s string) string { return cliutil.Quote(s) }

// FormatSchedule writes decisions sparsely: "I:V" for each non-default one.
// An all-default schedule is "0:0".
func FormatSchedule(cs []int64) string {
	var parts []string
	for i, v := range cs {
		if v != 0 {
			parts = append(parts, fmt.Sprintf("%d:%d", i, v))
		}
	}
	if len(parts) == 0 {
		return "0:0"
	}
	return strings.Join(parts, ",")
}

// ParseSchedule reads what FormatSchedule writes.
func ParseSchedule(s string) ([]int64, error) {
	cs := []int64{}
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		is, vs, ok := strings.Cut(strings.TrimSpace(part), ":")
		i, err1 := strconv.Atoi(is)
		v, err2 := strconv.ParseInt(vs, 10, 64)
		if !ok || err1 != nil || err2 != nil || i < 0 || i > 10_000_000 || v < 0 {
			return nil, fmt.Errorf("want I:V pairs (decision index, value >= 0), got %q", part)
		}
		for len(cs) <= i {
			cs = append(cs, 0)
		}
		if seen[i] {
			return nil, fmt.Errorf("decision %d is given twice", i)
		}
		seen[i] = true
		cs[i] = v
	}
	return cs, nil
}
