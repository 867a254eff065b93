package mutex

import (
	"bufio"
	"fmt"
	"io"

	"ringlab/internal/trace"
)

// namedText is the engine's text renderer with the seeds' node names
// (N3..N80 in seed 001, A, B, C in seed 000) instead of indices.
type namedText struct {
	w    *bufio.Writer
	sum  trace.Renderer
	name func(int) string
}

func newNamedText(w io.Writer, name func(int) string) *namedText {
	sum, _ := trace.NewRenderer("text", w)
	return &namedText{w: bufio.NewWriter(w), sum: sum, name: name}
}

func (r *namedText) Event(e *trace.Event) error {
	var what string
	switch e.Kind {
	case trace.KindSend:
		what = fmt.Sprintf("send  %s to %s", msgText(e.Msg), r.name(e.To))
	case trace.KindRecv:
		what = fmt.Sprintf("recv  %s from %s", msgText(e.Msg), r.name(e.From))
	case trace.KindDrop:
		what = fmt.Sprintf("DROP  %s %s->%s (%s)", msgText(e.Msg), r.name(e.From), r.name(e.To), e.Note)
	case trace.KindDup:
		what = fmt.Sprintf("DUP   %s %s->%s", msgText(e.Msg), r.name(e.From), r.name(e.To))
	default:
		what = trace.Describe(e)
	}
	_, err := fmt.Fprintf(r.w, "t=%-6d %-4s %s\n", e.T, r.name(e.Node), what)
	return err
}

func msgText(m *trace.Msg) string {
	if m == nil {
		return "?"
	}
	if f := m.Fields(); string(f) != "{}" {
		return m.Type() + string(f)
	}
	return m.Type()
}

func (r *namedText) Summary(s *trace.Summary) error {
	if err := r.w.Flush(); err != nil {
		return err
	}
	return r.sum.Summary(s)
}

func (r *namedText) Flush() error {
	if err := r.w.Flush(); err != nil {
		return err
	}
	return r.sum.Flush()
}
