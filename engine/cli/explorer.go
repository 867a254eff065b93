package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/serve"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
)

// serveExplorer is `check ALGO --serve`: the page where the user is the
// scheduler of the system the check would search (package serve's
// Explore), opened at the state --path reaches. base is the check's
// command line without --path and the serve flags. The address and the
// path are checked before the whole-space analysis starts (exit 2).
func serveExplorer(ctx context.Context, c *ucli.Context, sys engine.System, sc statespace.Config, base string, stderr io.Writer) error {
	var path, cycle []statespace.Trans
	if c.IsSet("path") {
		var err error
		if path, cycle, err = statespace.ParseLasso(c.String("path"), sc.Nodes); err != nil {
			return cliutil.Usagef("--path: %v", err)
		}
		if cycle != nil {
			_, err = statespace.ReplayLasso(sc, path, cycle, nil)
		} else {
			_, err = statespace.Replay(sc, path, nil)
		}
		if err != nil {
			return cliutil.Usagef("--path: %v", err)
		}
	}
	if n := c.Int("explore-states"); n < 0 {
		return cliutil.FlagUsagef("explore-states", "--explore-states must not be negative (0: no bound), got %d", n)
	}
	if d := c.Duration("explore-time"); d <= 0 {
		return cliutil.FlagUsagef("explore-time", "--explore-time must be positive, got %v", d)
	}
	in, err := ParseLang(c)
	if err != nil || dryRun(c) {
		return err
	}
	ln, err := serve.Listen(c.String("addr"), "--addr")
	if err != nil {
		return err
	}
	spec := serve.ExploreSpec{Title: sys.Name, Topology: sys.Topology, Edges: sys.Edges, Command: base, Config: sc, Theory: theory(sys), Lang: in}
	for i := 1; i <= sys.Nodes; i++ {
		name := "node " + strconv.Itoa(i)
		if sys.Names != nil {
			name = sys.Names(i)
		}
		spec.Names = append(spec.Names, name)
	}
	fmt.Fprintf(stderr, "analysing the whole space to mark what every step leads to (up to %d states, %v: --explore-states, --explore-time)\n",
		c.Int("explore-states"), c.Duration("explore-time"))
	e, err := serve.NewExplore(ctx, spec, c.Int("explore-states"), c.Duration("explore-time"))
	if err != nil {
		ln.Close()
		return err
	}
	open := statespace.FormatPath(path)
	if cycle != nil {
		open = statespace.FormatLasso(path, cycle)
	}
	if err := serve.RunExplore(ctx, e, ln, open, stderr); err != nil {
		return err
	}
	return ctx.Err() // Ctrl-C is how serving ends: exit 130
}

// theory is what the System's figures say the theory predicts for a whole
// run's messages ("theory", "theory for these ids"), for the page to show
// next to the fewest and most still to come; "" when it has none, or when
// its figures depend on what a run observed (Observe), which no run has
// yet.
func theory(sys engine.System) (t string) {
	if sys.Figures == nil || sys.Observe != nil {
		return ""
	}
	defer func() {
		if recover() != nil { // figures written for a finished run only
			t = ""
		}
	}()
	x := sys.Figures(&trace.Summary{Algorithm: sys.Name, Nodes: sys.Nodes})
	var parts []string
	for _, k := range []string{"theory", "theory for these ids"} {
		if v, ok := x[k].(string); ok && v != "" {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, "; ")
}
