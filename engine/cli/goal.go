package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/statespace"
)

// builtinGoal is the goal every check knows, whatever its area
// registers: three messages in flight on one link.
var builtinGoal = engine.MessagesOnALink(3)

// stageFlags reads --from-path (the state a staged search starts from)
// and --goal (a goal of sys's to reach instead of a violation) into sc.
func stageFlags(c *ucli.Context, sys engine.System, sc statespace.Config) (statespace.Config, error) {
	if c.IsSet("from-path") {
		p, err := statespace.ParsePath(c.String("from-path"), sc.Nodes)
		if err != nil {
			return sc, cliutil.Usagef("--from-path: %v", err)
		}
		sc.From = p // empty: the initial state
		if _, err := statespace.Replay(sc, nil, nil); err != nil {
			return sc, cliutil.Usagef("%v", err)
		}
	}
	if c.IsSet("goal") {
		name := c.String("goal")
		goals := sys.Goals
		if !slices.ContainsFunc(goals, func(g engine.Goal) bool { return g.Name == builtinGoal.Name }) {
			goals = append(slices.Clip(goals), builtinGoal)
		}
		k := slices.IndexFunc(goals, func(g engine.Goal) bool { return g.Name == name })
		if k < 0 {
			var names []string
			for _, g := range goals {
				names = append(names, g.Name)
			}
			return sc, cliutil.Usagef("--goal: unknown goal %q for %s (want one of: %s)", name, sys.Name, strings.Join(names, ", "))
		}
		sc.Goal = &goals[k]
		sc.POR = false // every interleaving: a goal may read any node's state
	}
	return sc, nil
}

// goalReport is what a goal search adds to the JSON report.
type goalReport struct {
	checkReport
	Goal    string `json:"goal"`
	Reached bool   `json:"reached"`
}

// reportGoal reports a goal search: a shortest path to the goal and its
// replay (exit 0), or that no reachable state meets it (exit 3 when the
// space was exhausted, 4 when a bound stopped the search first or a state
// constraint left states unexpanded, where the goal may lie).
func reportGoal(ctx context.Context, sys engine.System, sc statespace.Config, res statespace.Result, rep checkReport,
	base, format string, stdout, stderr io.Writer) error {
	g := goalReport{checkReport: rep, Goal: sc.Goal.Name, Reached: res.Goal}
	if res.Goal {
		g.Steps, g.Path = len(res.Path), statespace.FormatPath(res.Path)
		g.Replay = base + " --path " + g.Path
	}
	if format == "json" {
		b, _ := json.Marshal(g)
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		w := stdout
		if format != "text" {
			w = stderr
		}
		fmt.Fprintf(w, "states: %d distinct, %d transitions; depth %d; time %.3fs\n", rep.Distinct, rep.Transitions, rep.Depth, rep.Seconds)
		switch {
		case res.Goal:
			fmt.Fprintf(w, "result: goal %s reached after %d steps (a shortest path)\npath: %s\nreplay: %s\n", g.Goal, g.Steps, g.Path, g.Replay)
		case res.Violation != nil:
			fmt.Fprintf(w, "result: VIOLATION of %s before the goal %s was reached: %s\n", res.Violation.Property, g.Goal, res.Violation.Detail)
		case res.Exhausted && res.Beyond > 0:
			fmt.Fprintf(w, "result: goal %s not reached within %s: no state within it meets it, and %d states beyond it were not expanded\n", g.Goal, sc.Bound, res.Beyond)
		case res.Exhausted:
			fmt.Fprintf(w, "result: goal %s unreachable: no reachable state meets it (exhausted)\n", g.Goal)
		default:
			fmt.Fprintf(w, "result: goal %s not reached; not exhausted, stopped by %s\n", g.Goal, res.Stop)
		}
	}
	switch {
	case res.Goal:
		if format == "text" {
			fmt.Fprintln(stdout)
			err := replayPath(ctx, sys, sc, res.Path, format, rep.lang, g.Replay, stdout, stderr)
			if c := cliutil.Code(err); err != nil && c != cliutil.ExitNoTermination && c != cliutil.ExitViolation {
				return err
			}
		}
		return nil
	case res.Violation != nil:
		return cliutil.Violationf("violation of %s before the goal %s was reached", res.Violation.Property, g.Goal)
	case res.Exhausted && res.Beyond > 0:
		return cliutil.NoTerminationf("goal %s not reached within %s: %d states beyond it not expanded", g.Goal, sc.Bound, res.Beyond)
	case res.Exhausted:
		return cliutil.Violationf("goal %s unreachable", g.Goal)
	case res.Stop == "interrupted":
		return ctx.Err()
	}
	return cliutil.NoTerminationf("goal %s not reached: stopped by %s after %d distinct states", g.Goal, res.Stop, res.Distinct)
}
