// Package run is the glue every algorithm command calls: the flags all of
// them share (--runtime, --seed, --format, --events, fault flags), the choice
// of runtime, the checkers on the live event stream, the renderers, the
// closing summary, and the mapping of verdicts to exit codes.
package run

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
	"ringlab/internal/node"
	"ringlab/internal/sim"
	"ringlab/internal/trace"
)

// Flags returns the engine flags shared by every algorithm command.
func Flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "runtime", Value: "sim", Usage: "sim (deterministic, virtual time) or live (one goroutine per node)"},
		&cli.Uint64Flag{Name: "seed", Usage: "seed of the simulator's choices (default: drawn and printed on stderr)"},
		&cli.StringFlag{Name: "format", Value: "text", Usage: "text, json (NDJSON events), mermaid (sequence diagram) or none (summary only, on stderr)"},
		&cli.StringFlag{Name: "events", Usage: "also write the NDJSON event log to `FILE`"},
		&cli.StringFlag{Name: "policy", Value: "fifo", Usage: "sim delivery order: fifo (per link) or random (messages may overtake)"},
		&cli.StringFlag{Name: "latency", Value: "1", Usage: "sim message latency in ticks: N or MIN-MAX (uniform)"},
		&cli.Float64Flag{Name: "drop", Usage: "sim: probability that a message is lost, in [0,1]"},
		&cli.Float64Flag{Name: "dup", Usage: "sim: probability that a message is duplicated, in [0,1]"},
		&cli.StringSliceFlag{Name: "crash", Usage: "crash-stop node I at tick T: `I@T` (repeatable)"},
		&cli.StringSliceFlag{Name: "restart", Usage: "restart a crashed node I with its state lost (amnesia) at tick T: `I@T` (repeatable)"},
		&cli.StringSliceFlag{Name: "partition", Usage: "sim: cut nodes off from the rest from tick A until B: `I,J,...@A-B` (repeatable)"},
		&cli.StringSliceFlag{Name: "slow", Usage: "sim: delay every message to node I by X ticks from A until B: `I+X@A-B` (repeatable)"},
		&cli.Int64Flag{Name: "max-steps", Value: 50_000_000, Usage: "sim step budget; a run that needs more does not terminate (exit 4)"},
		&cli.DurationFlag{Name: "tick", Value: time.Millisecond, Usage: "live: wall-clock length of one tick"},
		&cli.DurationFlag{Name: "timeout", Value: time.Minute, Usage: "live: a run still going after this does not terminate (exit 4)"},
		&cli.BoolFlag{Name: "vc", Usage: "sim: add vector clocks to events (O(n) per event)"},
		&cli.StringFlag{Name: "schedule", Usage: "sim: replay a schedule printed by explore (`I:V,...`: decision I takes V, all others the default)"},
	}
}

// Options are the parsed engine flags.
type Options struct {
	Runtime      string
	Seed         uint64
	SeedDrawn    bool
	Format       string
	Events       string
	Policy       sim.Policy
	Latency      sim.Delay
	Faults       sim.Faults
	Script       []node.Action // crashes and restarts
	MaxSteps     int64
	Tick         time.Duration
	Timeout      time.Duration
	VectorClocks bool
	Schedule     []int64 // sim decisions to replay (explore's shrunk schedules)
}

// Parse reads the engine flags for a run of n nodes. Its errors are usage
// errors (exit 2) naming the flag.
func Parse(c *cli.Context, n int) (Options, error) {
	o := Options{
		Runtime:      c.String("runtime"),
		Seed:         c.Uint64("seed"),
		Format:       c.String("format"),
		Events:       c.String("events"),
		MaxSteps:     c.Int64("max-steps"),
		Tick:         c.Duration("tick"),
		Timeout:      c.Duration("timeout"),
		VectorClocks: c.Bool("vc"),
	}
	if !c.IsSet("seed") {
		o.Seed, o.SeedDrawn = rand.Uint64N(1<<32), true
	}
	if o.Runtime != "sim" && o.Runtime != "live" {
		return o, cliutil.Usagef("--runtime: unknown runtime %q (want sim or live)", o.Runtime)
	}
	if _, err := trace.NewRenderer(o.Format, nil); err != nil {
		return o, cliutil.Usagef("--format: %v", err)
	}
	var err error
	if o.Policy, err = sim.ParsePolicy(c.String("policy")); err != nil {
		return o, cliutil.Usagef("--policy: %v", err)
	}
	if o.Latency, err = parseRange(c.String("latency")); err != nil {
		return o, cliutil.Usagef("--latency: %v", err)
	}
	o.Faults.Drop, o.Faults.Dup = c.Float64("drop"), c.Float64("dup")
	for _, p := range []struct {
		name string
		v    float64
	}{{"--drop", o.Faults.Drop}, {"--dup", o.Faults.Dup}} {
		if !(p.v >= 0 && p.v <= 1) {
			return o, cliutil.Usagef("%s must be a probability in [0,1], got %v", p.name, p.v)
		}
	}
	for _, kind := range []struct {
		flag string
		cmd  node.Cmd
	}{{"crash", node.CmdCrash}, {"restart", node.CmdRestart}} {
		for _, s := range c.StringSlice(kind.flag) {
			i, t, err := parseAt(s, n)
			if err != nil {
				return o, cliutil.Usagef("--%s %q: %v", kind.flag, s, err)
			}
			o.Script = append(o.Script, node.Action{At: t, Node: i, Cmd: kind.cmd})
		}
	}
	for _, s := range c.StringSlice("partition") {
		p, err := parsePartition(s, n)
		if err != nil {
			return o, cliutil.Usagef("--partition %q: %v", s, err)
		}
		o.Faults.Partitions = append(o.Faults.Partitions, p)
	}
	for _, s := range c.StringSlice("slow") {
		sl, err := parseSlow(s, n)
		if err != nil {
			return o, cliutil.Usagef("--slow %q: %v", s, err)
		}
		o.Faults.Slow = append(o.Faults.Slow, sl)
	}
	if c.IsSet("schedule") {
		if o.Schedule, err = ParseSchedule(c.String("schedule")); err != nil {
			return o, cliutil.Usagef("--schedule: %v", err)
		}
	}
	switch {
	case o.MaxSteps < 1:
		return o, cliutil.Usagef("--max-steps must be at least 1, got %d", o.MaxSteps)
	case o.Tick <= 0:
		return o, cliutil.Usagef("--tick must be positive, got %v", o.Tick)
	case o.Timeout <= 0:
		return o, cliutil.Usagef("--timeout must be positive, got %v", o.Timeout)
	}
	if o.Runtime == "live" {
		for _, f := range []string{"policy", "latency", "drop", "dup", "partition", "slow", "max-steps", "schedule"} {
			if c.IsSet(f) {
				return o, cliutil.Usagef("--%s is a simulator fault or setting; use it with --runtime sim", f)
			}
		}
	} else {
		for _, f := range []string{"tick", "timeout"} {
			if c.IsSet(f) {
				return o, cliutil.Usagef("--%s only applies to --runtime live", f)
			}
		}
	}
	return o, nil
}

func parseRange(s string) (sim.Delay, error) {
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

// Replay returns the command line that repeats this run: the command's
// path, every flag the user set, and the seed.
// Flags named in skip are left out.
func Replay(c *cli.Context, seed uint64, skip ...string) string {
	parts := strings.Fields(c.Command.HelpName) // "ringlab election ring"
	for _, f := range c.Command.Flags {
		name := f.Names()[0]
		if name == "seed" || !c.IsSet(name) || slices.Contains(skip, name) {
			continue
		}
		switch v := c.Value(name).(type) {
		case cli.StringSlice:
			for _, s := range v.Value() {
				parts = append(parts, "--"+name, quote(s))
			}
		case bool:
			parts = append(parts, "--"+name)
		default:
			parts = append(parts, "--"+name, quote(fmt.Sprint(v)))
		}
	}
	return strings.Join(append(parts, "--seed", strconv.FormatUint(seed, 10)), " ")
}

func quote(s string) string {
	if s == "" || strings.ContainsAny(s, " \t'\"$\\;&|<>*?()") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

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
		cs[i] = v
	}
	return cs, nil
}
