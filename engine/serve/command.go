package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"slices"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/engine/lang"
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
		Description: "Serves the NDJSON logs named with --from (--format json or --events FILE of any run;\n" +
			"- reads one from standard input) and a page that draws them; a log can also be dropped\n" +
			"on the page (it stays in the browser). Each file is read once at start and served as\n" +
			"read. Read-only; loopback by default; Ctrl-C stops it.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: DefaultAddr, Usage: "`HOST:PORT` to listen on (port 0 picks a free one; a non-loopback host exposes the logs to the network)"},
			&cli.StringSliceFlag{Name: "from", Usage: "an NDJSON run log to serve: `FILE` (repeatable; - reads standard input; only these logs are served)"},
			&cli.StringFlag{Name: "lang", Value: "en", Usage: "language of the page: " + lang.Names},
		},
		Action: func(c *cli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			from := c.StringSlice("from")
			if i := slices.Index(from, "-"); i >= 0 && slices.Contains(from[i+1:], "-") {
				return cliutil.Usagef("--from -: standard input can be read once; name it once")
			}
			l, err := lang.Parse(c.String("lang"))
			if err != nil {
				return cliutil.FlagUsagef("lang", "--lang: %v", err)
			}
			ln, err := Listen(c.String("addr"), "--addr")
			if err != nil {
				return err
			}
			s := Server{Lang: l}
			for _, p := range from {
				if err := add(c, &s, p); err != nil {
					ln.Close()
					return err
				}
			}
			if err := Run(c.Context, &s, ln, "", c.App.ErrWriter); err != nil {
				return err
			}
			return c.Context.Err() // Ctrl-C is how serving ends: exit 130, as every command interrupted
		},
	}
}

// add adds the log named by --from p ("-": standard input) to s.
func add(c *cli.Context, s *Server, p string) error {
	if p != "-" {
		if err := s.AddFile(p); err != nil {
			return cliutil.Usagef("--from: %v", err)
		}
		return nil
	}
	var in io.Reader = c.App.Reader
	if in == nil {
		in = os.Stdin
	}
	if err := s.AddReader("standard input", in); err != nil {
		return cliutil.Usagef("--from -: %v", err)
	}
	return nil
}

// Listen checks addr and binds it, so that a bad address or a port in use
// is refused before any work; flag is the option the address came from
// ("--addr", "--serve-addr"), named in the error (exit 2).
func Listen(addr, flag string) (net.Listener, error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, cliutil.Usagef("%s %q: want HOST:PORT, e.g. %s", flag, addr, DefaultAddr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, cliutil.Usagef("%s %s: %v (pick another port, or port 0 for a free one)", flag, addr, err)
	}
	return ln, nil
}

// Run serves s on ln (from Listen) until ctx is cancelled (Ctrl-C),
// telling the user on stderr where to look; open is the path to point at
// ("" for the list of runs, "run/1" for the first run). It closes ln.
func Run(ctx context.Context, s *Server, ln net.Listener, open string, stderr io.Writer) error {
	if !isLoopbackAddr(ln.Addr()) {
		fmt.Fprintf(stderr, "warning: %s is not a loopback address: anyone who can reach it can read these logs\n", ln.Addr())
	}
	return Serve(ctx, ln, s, func(base string) {
		fmt.Fprintf(stderr, "serving %d run(s) at %s/%s (Ctrl-C to stop)\n", len(s.runs), base, open)
	})
}
