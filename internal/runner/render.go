package runner

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
	"ringlab/internal/trace"
)

// renderFormats are the formats render writes (every format but none).
var renderFormats = strings.Join(trace.Formats[:len(trace.Formats)-1], ", ")

// RenderCommand is `ringlab render`: it redraws a saved NDJSON event log
// in another format.
func RenderCommand() *cli.Command {
	return &cli.Command{
		Name:  "render",
		Usage: "redraw a saved run log as text, NDJSON, a Mermaid sequence diagram, an SVG space-time diagram, a ShiViz log or a Chrome trace",
		UsageText: "ringlab render --from FILE [--format " + strings.ReplaceAll(renderFormats, ", ", "|") + "] [--out FILE]\n\n" +
			"Example:\n   ringlab election ring --format json > run.ndjson\n   ringlab render --from run.ndjson --format svg --out run.svg",
		Description: "Reads the engine's NDJSON (--format json or --events FILE of any run) and the capitalizing\n" +
			"ring's (ringlab ring --format json). A log without a header line (older logs) names nodes\n" +
			"'node I'.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "the NDJSON log to read (`FILE`, or - for standard input)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: renderFormats},
			&cli.StringFlag{Name: "out", Usage: "write to `FILE` instead of standard output"},
		},
		Action: func(c *cli.Context) error {
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
			var in io.Reader = c.App.Reader
			if in == nil {
				in = os.Stdin
			}
			name := c.String("from")
			if name != "-" {
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
			log, err := trace.Load(in)
			if err != nil {
				return cliutil.Usagef("--from %s: %v", name, err)
			}
			w, done, err := cliutil.Output(c)
			if err != nil {
				return err
			}
			defer done()
			r, _ := trace.NewRenderer(format, w)
			if err := log.Render(r); err != nil {
				return fmt.Errorf("writing: %w", err)
			}
			return nil
		},
	}
}
