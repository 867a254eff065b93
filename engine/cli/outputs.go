package cli

import (
	"fmt"
	"io"
	"os"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/trace"
)

// outputs are the renderers one process writes a run to: its format on
// stdout (or the --out file) and, with --events, the NDJSON log in a file;
// a served run's in-memory log too. They keep the first write error. Its
// methods are not safe for concurrent use; the caller that opens it
// closes it.
type outputs struct {
	rs             []trace.Renderer
	stdout, stderr io.Writer
	files          []*os.File
	log            trace.Renderer // the --events log, or nil
	seq            int64          // events numbered by nodeEvent
	err            error          // first write error
}

// openOutputs opens what opts asks a run of sys to be written to: the
// format on stdout or the --out file (sys's own text renderer for "text",
// where it has one), the --events log, the served log.
func openOutputs(sys *engine.System, opts Options, stdout, stderr io.Writer) (*outputs, error) {
	o := &outputs{stdout: stdout, stderr: stderr}
	if _, err := trace.NewRenderer(opts.Format, nil); err != nil {
		return nil, cliutil.Usagef("--format: %v", err)
	}
	if opts.Out != "" {
		if opts.Format == "none" {
			return nil, cliutil.Usagef("--out: --format none writes nothing to a file")
		}
		f, err := os.Create(opts.Out)
		if err != nil {
			return nil, cliutil.Usagef("--out: %v", err)
		}
		o.files, o.stdout = append(o.files, f), f
	}
	r, _ := trace.NewRenderer(opts.Format, o.stdout)
	r = trace.InLang(r, opts.Lang)
	if opts.Format == "text" && sys.Text != nil {
		r = sys.Text(o.stdout, stderr)
	}
	o.rs = []trace.Renderer{r}
	if opts.Events != "" {
		f, err := os.Create(opts.Events)
		if err != nil {
			o.close()
			return nil, cliutil.Usagef("--events: %v", err)
		}
		o.files = append(o.files, f)
		o.log, _ = trace.NewRenderer("json", f)
		o.rs = append(o.rs, o.log)
	}
	o.rs = opts.Serving.renderers(o.rs)
	return o, nil
}

// header gives h to every renderer that wants a header.
func (o *outputs) header(h *trace.Header) {
	for _, r := range o.rs {
		if hr, ok := r.(trace.HeaderRenderer); ok {
			o.keep(hr.Header(h))
		}
	}
}

// flush flushes every renderer.
func (o *outputs) flush() {
	for _, r := range o.rs {
		o.keep(r.Flush())
	}
}

// writeErr is the first write error, as the error of a run.
func (o *outputs) writeErr() error {
	if o.err != nil {
		return fmt.Errorf("writing the log: %w", o.err)
	}
	return nil
}

// keep records err if it is the first write error.
func (o *outputs) keep(err error) {
	if err != nil && o.err == nil {
		o.err = err
	}
}

// close closes the files it opened.
func (o *outputs) close() {
	for _, f := range o.files {
		f.Close()
	}
}
