package runner

import (
	"io"
	"os"

	"ringlab/internal/cliutil"
	"ringlab/internal/trace"
)

// outputs are the renderers one process writes a run to: its format on
// stdout and, with --events, the NDJSON log in a file. They number the
// events they are given and keep the first write error. Its methods are not
// safe for concurrent use; the caller that opens it closes it.
type outputs struct {
	rs   []trace.Renderer
	log  trace.Renderer // the --events log, or nil
	file *os.File       // its file, or nil
	seq  int64
	err  error // first write error
}

// openOutputs renders format to stdout (the spec's own text renderer for
// "text", where it has one) and, when events is not empty, the NDJSON log
// to a file created at that path.
func (spec Spec) openOutputs(format, events string, stdout, stderr io.Writer) (*outputs, error) {
	r, _ := trace.NewRenderer(format, stdout)
	if format == "text" && spec.Text != nil {
		r = spec.Text(stdout, stderr)
	}
	o := &outputs{rs: []trace.Renderer{r}}
	if events != "" {
		f, err := os.Create(events)
		if err != nil {
			return nil, cliutil.Usagef("--events: %v", err)
		}
		o.file = f
		o.log, _ = trace.NewRenderer("json", f)
		o.rs = append(o.rs, o.log)
	}
	return o, nil
}

// event numbers e and hands it to every renderer.
func (o *outputs) event(e *trace.Event) {
	o.seq++
	e.Seq = o.seq
	for _, r := range o.rs {
		o.keep(r.Event(e))
	}
}

// flush flushes every renderer.
func (o *outputs) flush() {
	for _, r := range o.rs {
		o.keep(r.Flush())
	}
}

// keep records err if it is the first write error.
func (o *outputs) keep(err error) {
	if err != nil && o.err == nil {
		o.err = err
	}
}

// close closes the --events file, if there is one.
func (o *outputs) close() {
	if o.file != nil {
		o.file.Close()
	}
}
