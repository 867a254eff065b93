package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/run"
	"ringlab/engine/serve"
	"ringlab/engine/trace"
)

// ServeFlags are --serve and --addr: run, then show the run in the
// browser (package serve). Every run command has them through Flags.
// --serve-addr, the old name of --addr, still works, hidden.
func ServeFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.BoolFlag{Name: "serve", Usage: "after the run, show it in the browser: serve its log on --addr until Ctrl-C"},
		&ucli.StringFlag{Name: "addr", Value: serve.DefaultAddr, Usage: "with --serve: `HOST:PORT` to listen on (port 0 picks a free one)"},
		&ucli.StringFlag{Name: "serve-addr", Value: serve.DefaultAddr, Hidden: true, Usage: "the old name of --addr"},
	}
}

// Serving is what --serve asks for: the address to serve the run on ("":
// do not serve) and, inside Execute, the in-memory copy of its log.
type Serving struct {
	Addr string // the address to serve on, host:port
	Flag string // the flag that gave it, for errors: "--addr" or "--serve-addr"
	log  io.Writer
}

// ParseServe reads ServeFlags: the address is --addr's, or --serve-addr's
// when only that old name is given.
func ParseServe(c *ucli.Context) Serving {
	if !c.Bool("serve") {
		return Serving{}
	}
	if c.IsSet("serve-addr") && !c.IsSet("addr") {
		return Serving{Addr: c.String("serve-addr"), Flag: "--serve-addr"}
	}
	return Serving{Addr: c.String("addr"), Flag: "--addr"}
}

// logged reports whether the run's events are written anywhere.
func (o Options) logged() bool {
	return o.Format != "none" || o.Events != "" || o.Serving.log != nil
}

// renderers adds the in-memory log's renderer to rs when the run is served.
func (s Serving) renderers(rs []trace.Renderer) []trace.Renderer {
	if s.log == nil {
		return rs
	}
	jr, _ := trace.NewRenderer("json", s.log)
	return append(rs, jr)
}

// executeServed binds --addr first (a bad address or a port in use
// is exit 2 before anything runs), runs spec with its log kept in memory,
// then serves the log until ctx is cancelled, and returns the run's own
// result (a violation is still exit 3). The replay command shown drops the
// serve flags.
func executeServed(ctx context.Context, sys engine.System, opts Options, replay string, stdout, stderr io.Writer) (run.Outcome, error) {
	ln, err := serve.Listen(opts.Serving.Addr, opts.Serving.Flag)
	if err != nil {
		return run.Outcome{}, err
	}
	served := false
	defer func() {
		if !served {
			ln.Close()
		}
	}()
	var log bytes.Buffer
	opts.Serving = Serving{log: &log}
	replay = withoutServe(replay)
	out, err := Execute(ctx, sys, opts, replay, stdout, stderr)
	if ctx.Err() != nil || cliutil.Code(err) == cliutil.ExitInternal || cliutil.Code(err) == cliutil.ExitUsage {
		return out, err
	}
	var s serve.Server
	if _, aerr := s.AddLog(sys.Name+" (this run)", log.Bytes()); aerr != nil {
		return out, fmt.Errorf("serving the run: %w", aerr)
	}
	served = true
	if serr := serve.Run(ctx, &s, ln, "run/1", stderr); serr != nil {
		return out, serr
	}
	return out, err
}

// withoutServe removes --serve and --addr ADDR (or --serve-addr ADDR)
// from a command line.
func withoutServe(cmd string) string {
	f := strings.Fields(cmd)
	out := f[:0]
	for i := 0; i < len(f); i++ {
		switch {
		case f[i] == "--serve":
		case (f[i] == "--serve-addr" || f[i] == "--addr") && i+1 < len(f):
			i++
		case strings.HasPrefix(f[i], "--serve-addr="), strings.HasPrefix(f[i], "--addr="), strings.HasPrefix(f[i], "--serve="):
		default:
			out = append(out, f[i])
		}
	}
	return strings.Join(out, " ")
}
