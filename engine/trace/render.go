package trace

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"ringlab/engine/lang"
)

// Formats a renderer can write.
var Formats = []string{"text", "json", "mermaid", "svg", "shiviz", "chrome-trace", "none"}

// FormatUsage is the --format flag's help text.
const FormatUsage = "text, json (NDJSON events), mermaid (sequence diagram), svg (space-time diagram), " +
	"shiviz (log for ShiViz), chrome-trace (for ui.perfetto.dev) or none (summary only, on stderr)"

// Renderer writes a run's events and its closing summary in one format.
// Event may be handed a reused *Event: renderers must not keep it.
type Renderer interface {
	// Event renders one event, in the order of the run.
	Event(e *Event) error
	// Summary renders the closing summary, after the last event.
	Summary(s *Summary) error
	// Flush writes out whatever the renderer still holds; call it once,
	// at the end.
	Flush() error
}

// HeaderRenderer is a Renderer that wants the log's header (the nodes'
// names, the topology) before the first event.
type HeaderRenderer interface {
	// Header takes the log's header, before the first Event.
	Header(h *Header) error
}

// NewRenderer returns the renderer for format (one of Formats), writing
// to w.
func NewRenderer(format string, w io.Writer) (Renderer, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	switch format {
	case "text":
		return &textRenderer{w: bw}, nil
	case "json":
		enc := json.NewEncoder(bw)
		enc.SetEscapeHTML(false)
		return &jsonRenderer{w: bw, enc: enc}, nil
	case "mermaid":
		return &mermaidRenderer{collector: collector{w: bw}}, nil
	case "svg":
		return &svgRenderer{collector: collector{w: bw}}, nil
	case "shiviz":
		return &shivizRenderer{collector: collector{w: bw}}, nil
	case "chrome-trace":
		return &chromeRenderer{collector: collector{w: bw}}, nil
	case "none":
		return noneRenderer{}, nil
	}
	return nil, fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

type jsonRenderer struct {
	w   *bufio.Writer
	enc *json.Encoder
}

func (r *jsonRenderer) Header(h *Header) error   { return r.enc.Encode(h) }
func (r *jsonRenderer) Event(e *Event) error     { return r.enc.Encode(e) }
func (r *jsonRenderer) Summary(s *Summary) error { return r.enc.Encode(s) }
func (r *jsonRenderer) Flush() error             { return r.w.Flush() }

type noneRenderer struct{}

func (noneRenderer) Event(*Event) error     { return nil }
func (noneRenderer) Summary(*Summary) error { return nil }
func (noneRenderer) Flush() error           { return nil }

// textRenderer writes one readable line per event, nodes by their names,
// and the clocks when the events carry vector clocks (--vc).
type textRenderer struct {
	w     *bufio.Writer
	h     *Header
	width int
	lang  lang.Lang // the language of the verdict lines
}

// InLang makes r write its words in l (package lang) when it writes
// text (the verdict lines) or an svg picture; it returns r. The other
// formats are data, or drawn by other tools, and stay as they are.
func InLang(r Renderer, l lang.Lang) Renderer {
	switch t := r.(type) {
	case *textRenderer:
		t.lang = l
	case *svgRenderer:
		t.lang = l
	}
	return r
}

func (r *textRenderer) Header(h *Header) error {
	r.h = h
	for i := 1; i <= h.Nodes && i <= len(h.Names); i++ {
		r.width = max(r.width, len([]rune(h.Name(i))))
	}
	return nil
}

func (r *textRenderer) Event(e *Event) error {
	clocks := ""
	if e.VC != nil {
		clocks = fmt.Sprintf("  lc=%d vc=%s", e.LC, vcText(e.VC))
	}
	what := DescribeWith(e, r.h.Name)
	if e.Kind == KindViolation && r.lang.Tag() != lang.EN.Tag() {
		what = r.lang.T("trace.violation", OneLine(r.lang.Property(e.Property)), OneLine(r.lang.Detail(e.Detail)))
	}
	_, err := fmt.Fprintf(r.w, "t=%-6s %-*s %s%s\n", r.h.FormatTime(e.T), max(r.width, 8), r.h.Name(e.Node), what, clocks)
	return err
}

func vcText(vc []uint32) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range vc {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatUint(uint64(v), 10))
	}
	b.WriteByte(']')
	return b.String()
}

// Describe is the text of an event after its time and node, nodes named
// by index.
func Describe(e *Event) string { return DescribeWith(e, DefaultName) }

// DescribeWith is the text of an event after its time and node, other
// nodes named by name. Text from the log is kept on one line.
func DescribeWith(e *Event, name func(int) string) string {
	switch e.Kind {
	case KindSend:
		return fmt.Sprintf("send  %s to %s", Short(e.Msg), name(e.To))
	case KindRecv:
		return fmt.Sprintf("recv  %s from %s", Short(e.Msg), name(e.From))
	case KindDrop:
		return fmt.Sprintf("DROP  %s %s->%s (%s)", Short(e.Msg), name(e.From), name(e.To), OneLine(e.Note))
	case KindDup:
		return fmt.Sprintf("DUP   %s %s->%s", Short(e.Msg), name(e.From), name(e.To))
	case KindCrash:
		return "CRASH"
	case KindRecover:
		return "RECOVER (state lost)"
	case KindCmd:
		return "cmd   " + OneLine(e.Command())
	case KindState:
		return "state " + OneLine(e.State) + noteSuffix(e.Note)
	case KindEnterCS:
		return "ENTER critical section"
	case KindExitCS:
		return "EXIT  critical section"
	case KindLeader:
		return fmt.Sprintf("leader is id %d%s", e.LeaderID(), noteSuffix(e.Note))
	case KindNote:
		return "note  " + OneLine(e.Note)
	case KindViolation:
		return fmt.Sprintf("VIOLATION of %s: %s", OneLine(e.Property), OneLine(e.Detail))
	}
	return OneLine(e.Kind)
}

func noteSuffix(n string) string {
	if n == "" {
		return ""
	}
	return " (" + OneLine(n) + ")"
}

// Summary writes the closing summary.
func (r *textRenderer) Summary(s *Summary) error {
	w := r.w
	h := r.h
	if h == nil {
		h = &Header{Runtime: s.Runtime}
	}
	fmt.Fprintf(w, "\n%s on %s, %d nodes, seed %d: %d steps, t=%s\n", OneLine(s.Algorithm), OneLine(s.Runtime), s.Nodes, s.Seed, s.Steps, h.FormatTime(s.Time))
	fmt.Fprintf(w, "messages: %d", s.Messages)
	types := make([]string, 0, len(s.ByType))
	for t := range s.ByType {
		types = append(types, t)
	}
	slices.Sort(types)
	for i, t := range types {
		sep := ", "
		if i == 0 {
			sep = " ("
		}
		fmt.Fprintf(w, "%s%s %d", sep, OneLine(t), s.ByType[t])
	}
	if len(types) > 0 {
		fmt.Fprint(w, ")")
	}
	fmt.Fprintln(w)
	if s.Dropped > 0 || s.Duplicated > 0 {
		fmt.Fprintf(w, "network: %d dropped, %d duplicated\n", s.Dropped, s.Duplicated)
	}
	keys := make([]string, 0, len(s.Extra))
	for k := range s.Extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "%s: %s\n", OneLine(k), OneLine(fmt.Sprint(s.Extra[k])))
	}
	for _, u := range s.Unapplied {
		fmt.Fprintf(w, "not applied: %s\n", u)
	}
	for _, v := range s.Verdicts {
		fmt.Fprintln(w, VerdictLineIn(r.lang, v))
	}
	_, err := fmt.Fprintf(w, "replay: %s%s\n", OneLine(s.Replay), ReplayNote(s.Runtime))
	return err
}

// ReplayNote is what follows a run's replay command where it is shown: for a
// run on goroutines, that the command runs it again but cannot repeat its
// interleaving, which the Go scheduler chose (and no seed records).
func ReplayNote(runtime string) string {
	if runtime == "live" || runtime == "amqp" {
		return "   (runs it again; the interleaving was the Go scheduler's, which no seed repeats)"
	}
	return ""
}

// VerdictLine is "✓ property" or "✗ property: detail", on one line; a
// verdict not reached is "– property: not reached (detail)".
func VerdictLine(v Verdict) string { return VerdictLineIn(lang.EN, v) }

// VerdictLineIn is VerdictLine in l: the property's name and the fixed
// words in l's, a detail in l's where its table knows it (lang.Detail).
func VerdictLineIn(l lang.Lang, v Verdict) string {
	name, detail := OneLine(l.Property(v.Property)), OneLine(l.Detail(v.Detail))
	if v.NotReached {
		d := ""
		if v.Detail != "" {
			d = " (" + detail + ")"
		}
		return "– " + name + ": " + l.T("verdict.notReached") + d
	}
	mark := "✓"
	if !v.OK {
		mark = "✗"
	}
	d := ""
	if v.Detail != "" {
		d = ": " + detail
	}
	return mark + " " + name + d
}

func (r *textRenderer) Flush() error { return r.w.Flush() }
