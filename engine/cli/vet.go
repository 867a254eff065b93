package cli

import (
	"context"
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/internal/derive"
	"ringlab/engine/statespace"
	"ringlab/engine/vet"
)

// vetDescription is the help of every `AREA vet ALGO`: what each check
// means.
const vetDescription = `Lint the algorithm's node against the contract every tool relies on. A
bounded exhaustive search of the checked system (as 'check' builds it)
collects the node states and inputs it meets; then:

   determinism  Step on two clones of one state, given the same input, gives
                the same outputs and the same key afterwards
   clone        stepping a Clone leaves the original's key unchanged (Clone
                shares no slice or map with its original that a step
                changes in place)
   key          two states with one AppendKey key behave the same on the
                inputs the search met in that key (the key leaves out no
                field that changes behaviour)
   codec        every message type, and every message met, comes back equal
                from the RabbitMQ codec and from the NDJSON log
   clock        the node's source calls no wall clock, random source or
                process environment (time.Now, math/rand, os.Getenv, ...)

Each finding is one line on stdout, naming the check, the node, the method,
the input and what differed; the last line counts them. Exit status 3 when
there are findings, 0 when there are none. A check that cannot run (the
clock check without the source) says so and is not counted as passed.`

func (a Area) vetCommand(alg engine.Algorithm) *ucli.Command {
	alg = alg.ForCheck()
	example := "ringlab " + a.Name + " vet " + alg.Name
	return &ucli.Command{
		Name: alg.Name, Usage: "lint " + alg.Name + "'s node: determinism, clone, key, codec, clock",
		Description: vetDescription,
		UsageText:   usageText("ringlab "+a.Name+" vet "+alg.Name, example),
		Flags: append(searchParamFlags(alg, "vet"), &ucli.Int64Flag{Name: "max-states", Value: vet.DefaultMaxStates,
			Usage: "distinct states of the search that collects the states and inputs to check"}),
		Action: func(c *ucli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			if c.Int64("max-states") < 1 {
				return cliutil.FlagUsagef("max-states", "--max-states must be at least 1, got %d", c.Int64("max-states"))
			}
			ps, err := ReadParams(c, alg)
			if err != nil {
				return err
			}
			// Build's errors are the user's: check them as the run commands do.
			sys, err := build1(alg, ps, engine.Env{Runtime: "sim", MaxDelay: 1})
			if err != nil {
				return err
			}
			if sys.Nodes > statespace.MaxNodes {
				return tooManyNodes("vet", sys.Nodes)
			}
			if err := derivable(sys); err != nil {
				return err
			}
			fmt.Fprintf(c.App.ErrWriter, "vet: searching up to %d states of %s, then stepping what the search meets\n", c.Int64("max-states"), alg.Name)
			r, err := vet.Run(c.Context, alg, ps, vet.Options{MaxStates: c.Int64("max-states")})
			if err != nil {
				return err
			}
			return vetReport(c, r)
		},
	}
}

// searchParamFlags are alg's parameter flags for a command that searches
// its states (check, vet): --nodes says the bound of such a search, which
// is below a run's.
func searchParamFlags(alg engine.Algorithm, cmd string) []ucli.Flag {
	fs := ParamFlags(alg)
	for _, f := range fs {
		if nf, ok := f.(*ucli.IntFlag); ok && nf.Name == "nodes" {
			nf.Usage = strings.TrimSpace(nf.Usage + fmt.Sprintf(" (%s takes at most %d)", cmd, statespace.MaxNodes))
		}
	}
	return fs
}

// derivable refuses, before anything is searched, a System whose nodes
// the search can neither copy nor compare: a node without its own Clone
// and AppendKey that holds a func, a chan or an unsafe pointer
// (engine/internal/derive names the field; exit 1, the code of a node
// that breaks the engine's contract, as no flag can mend it).
func derivable(sys engine.System) error {
	for i := 1; sys.Factory != nil && i <= sys.Nodes; i++ {
		nd, err := sys.Factory(i)
		if err != nil {
			return nil // the search reports the Factory's error
		}
		if err := (derive.Ops{}).Check(nd); err != nil {
			return err
		}
	}
	return nil
}

// vetReport writes r's findings on stdout, one a line, then the count and
// the checks that ran; a skipped check is said on stderr.
func vetReport(c *ucli.Context, r vet.Report) error {
	out, errw := c.App.Writer, c.App.ErrWriter
	for _, f := range r.Findings {
		fmt.Fprintln(out, f)
	}
	ran := []string{}
	skipped := []string{}
	for _, name := range vet.Checks() {
		skip := ""
		for _, s := range r.Skipped {
			if s.Check == name {
				skip = s.Why
			}
		}
		if skip == "" {
			ran = append(ran, name)
			continue
		}
		skipped = append(skipped, name)
		fmt.Fprintf(errw, "vet: the %s check was skipped: %s\n", name, skip)
	}
	stepped := "stepped"
	if r.Interrupted { // the checks were cut short: not every pair was stepped
		stepped = "met"
	}
	fmt.Fprintf(errw, "vet: %d states searched, %d (state, input) pairs %s, %d messages round-tripped\n", r.States, r.Inputs, stepped, r.Messages)
	checks := "checks: " + strings.Join(ran, ", ")
	if len(skipped) > 0 {
		checks += "; skipped: " + strings.Join(skipped, ", ")
	}
	if r.Interrupted {
		fmt.Fprintf(out, "vet: interrupted after %d states: %d findings so far (%s)\n", r.States, len(r.Findings), checks)
		return context.Canceled
	}
	fmt.Fprintf(out, "vet: %d findings (%s)\n", len(r.Findings), checks)
	if len(r.Findings) > 0 {
		return &cliutil.ExitError{Code: cliutil.ExitViolation, Err: fmt.Errorf("vet: %d findings", len(r.Findings))}
	}
	return nil
}
