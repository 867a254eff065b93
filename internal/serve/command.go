package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"

	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// DefaultAddr is where the server listens unless told otherwise.
const DefaultAddr = "127.0.0.1:8080"

// Command returns the top-level `serve` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "watch run logs in the browser: the nodes, the messages in flight, step by step, forwards and back",
		UsageText: "ringlab serve [--addr 127.0.0.1:8080] [--from run.ndjson ...]\n\n" +
			"Example:\n   ringlab mutex scenario central-slow --format json > cs.ndjson\n" +
			"   ringlab serve --from cs.ndjson\n\n" +
			"Any run command also takes --serve (run, then show it): ringlab election ring --serve",
		Description: "Serves the NDJSON logs named with --from (--format json or --events FILE of any run)\n" +
			"and a page that draws them; a log can also be dropped on the page (it stays in the\n" +
			"browser). Read-only; loopback by default; Ctrl-C stops it.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: DefaultAddr, Usage: "`HOST:PORT` to listen on (port 0 picks a free one; a non-loopback host exposes the logs to the network)"},
			&cli.StringSliceFlag{Name: "from", Usage: "an NDJSON run log to serve: `FILE` (repeatable; only these files are served)"},
		},
		Action: func(c *cli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			var s Server
			for _, p := range c.StringSlice("from") {
				if err := s.AddFile(p); err != nil {
					return cliutil.Usagef("--from: %v", err)
				}
			}
			if err := Run(c.Context, &s, c.String("addr"), "", c.App.ErrWriter); err != nil {
				return err
			}
			return c.Context.Err() // Ctrl-C is how serving ends: exit 130, as every command interrupted
		},
	}
}

// Run serves s on addr until ctx is cancelled (Ctrl-C), telling the user
// on stderr where to look; open is the path to point at ("" for the list
// of runs, "run/1" for the first run).
func Run(ctx context.Context, s *Server, addr, open string, stderr io.Writer) error {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return cliutil.Usagef("--addr %q: want HOST:PORT, e.g. %s", addr, DefaultAddr)
	}
	if !isLoopback(addr) {
		fmt.Fprintf(stderr, "warning: %s is not a loopback address: anyone who can reach it can read these logs\n", addr)
	}
	err := Serve(ctx, addr, s, func(base string) {
		fmt.Fprintf(stderr, "serving %d run(s) at %s/%s (Ctrl-C to stop)\n", len(s.runs), base, open)
	})
	var op *net.OpError
	if errors.Is(err, syscall.EADDRINUSE) || errors.As(err, &op) && op.Op == "listen" {
		return cliutil.Usagef("--addr %s: %v (pick another port, or port 0 for a free one)", addr, err)
	}
	return err
}
