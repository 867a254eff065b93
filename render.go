package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
	"ringlab/internal/trace"
)

// renderCommand redraws a saved NDJSON event log in another format.
func renderCommand() *cli.Command {
	return &cli.Command{
		Name:  "render",
		Usage: "redraw a saved NDJSON event log as text, a Mermaid sequence diagram, or NDJSON",
		UsageText: "ringlab render --from FILE [--format text|mermaid|json]\n\n" +
			"Example:\n   ringlab election ring --format json > run.ndjson\n   ringlab render --from run.ndjson --format mermaid",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "the NDJSON log to read (`FILE`, or - for standard input)", Required: true},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, mermaid or json"},
		},
		Action: func(c *cli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			format := c.String("format")
			if format == "none" {
				return cliutil.Usagef("--format none renders nothing; want text, mermaid or json")
			}
			r, err := trace.NewRenderer(format, c.App.Writer)
			if err != nil {
				return cliutil.Usagef("--format: %v", err)
			}
			in := os.Stdin
			if name := c.String("from"); name != "-" {
				f, err := os.Open(name)
				if errors.Is(err, fs.ErrNotExist) {
					return cliutil.Usagef("--from: no such file %q", name)
				}
				if err != nil {
					return cliutil.Usagef("--from: %v", err)
				}
				defer f.Close()
				in = f
			}
			// Read everything first so a malformed log prints nothing.
			var events []*trace.Event
			var sums []*trace.Summary
			err = trace.Read(in, func(e *trace.Event) error { events = append(events, e); return nil },
				func(s *trace.Summary) error { sums = append(sums, s); return nil })
			if err != nil {
				return cliutil.Usagef("--from %s: %v", c.String("from"), err)
			}
			if len(events) == 0 && len(sums) == 0 {
				return cliutil.Usagef("--from %s: the log is empty", c.String("from"))
			}
			for _, e := range events {
				if err := r.Event(e); err != nil {
					return err
				}
			}
			for _, s := range sums {
				if err := r.Summary(s); err != nil {
					return err
				}
			}
			if err := r.Flush(); err != nil {
				return fmt.Errorf("writing: %w", err)
			}
			return nil
		},
	}
}
