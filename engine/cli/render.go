package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/engine/run"
	"ringlab/engine/trace"
)

// renderFormats are the formats render writes (every format but none).
var renderFormats = strings.Join(trace.Formats[:len(trace.Formats)-1], ", ")

// RenderCommand is `ringlab render`: it redraws a saved NDJSON event log
// in another format. It reads the engine's logs and those of dialects
// (other programs' logs: ringlab passes the capitalizing ring's).
func RenderCommand(dialects ...trace.Dialect) *ucli.Command {
	also := ""
	for _, d := range dialects {
		also += ", and " + d.Source
	}
	return &ucli.Command{
		Name:  "render",
		Usage: "redraw a saved run log as text, NDJSON, a Mermaid sequence diagram, an SVG space-time diagram, a ShiViz log or a Chrome trace",
		UsageText: "ringlab render --from FILE [--format " + strings.ReplaceAll(renderFormats, ", ", "|") + "] [--out FILE]\n\n" +
			"Example:\n   ringlab election ring --format json > run.ndjson\n   ringlab render --from run.ndjson --format svg --out run.svg",
		Description: "Reads the engine's NDJSON (--format json or --events FILE of any run)" + also + ".\n" +
			"A log without a header line (older logs) names nodes 'node I'. A log larger than\n" +
			"--max-size (256 MiB) is refused; Ctrl-C stops the reading.",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "from", Usage: "the NDJSON log to read (`FILE`, or - for standard input)"},
			&ucli.StringFlag{Name: "format", Value: "text", Usage: renderFormats},
			&ucli.StringFlag{Name: "out", Usage: "write to `FILE` instead of standard output"},
			&ucli.IntFlag{Name: "max-size", Value: run.DefaultMaxLogMiB, Usage: "refuse a log larger than this many `MiB` (reading holds its events in memory, a few times its size on disk)"},
		},
		Action: func(c *ucli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			if !c.IsSet("from") {
				return cliutil.Usagef("render needs --from FILE (a log saved with --format json or --events FILE; - reads standard input)")
			}
			format := c.String("format")
			if format == "none" {
				return cliutil.Usagef("--format none renders nothing; want one of %s", renderFormats)
			}
			if _, err := trace.NewRenderer(format, nil); err != nil {
				return cliutil.Usagef("--format: %v", err)
			}
			maxMiB := c.Int("max-size")
			if maxMiB < 1 || maxMiB > 1<<20 {
				return cliutil.Usagef("--max-size must be between 1 and %d MiB, got %d", 1<<20, maxMiB)
			}
			var in io.Reader = c.App.Reader
			if in == nil {
				in = os.Stdin
			}
			name := c.String("from")
			if name != "-" {
				if out := c.String("out"); out != "" && cliutil.SameFile(name, out) {
					return cliutil.Usagef("--out %s is the --from log itself: rendering would overwrite its input; write to another file", out)
				}
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
			// Read everything first so a malformed log writes nothing.
			log, err := trace.LoadContext(c.Context, run.Limit(in, int64(maxMiB)<<20), dialects...)
			var stopped *trace.Interrupted
			switch {
			case errors.As(err, &stopped):
				fmt.Fprintf(c.App.ErrWriter, "render: --from %s: %v; nothing written\n", name, err)
				return stopped.Err
			case errors.Is(err, run.ErrTooLarge):
				return cliutil.Usagef("--from %s: the log is larger than --max-size %d MiB (reading takes a few times that in memory); raise --max-size if this machine has room", name, maxMiB)
			case err != nil:
				return cliutil.Usagef("--from %s: %v", name, err)
			}
			w, done, err := cliutil.Output(c)
			if err != nil {
				return err
			}
			defer done()
			r, _ := trace.NewRenderer(format, w)
			if err := log.RenderContext(c.Context, r); err != nil {
				if errors.As(err, &stopped) {
					fmt.Fprintf(c.App.ErrWriter, "render: %v; the output is cut there\n", err)
					return stopped.Err
				}
				return fmt.Errorf("writing: %w", err)
			}
			return nil
		},
	}
}
