package trace

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Formats a renderer can write.
var Formats = []string{"text", "json", "mermaid", "none"}

// Renderer writes a run's events and its closing summary in one format.
// Event may be handed a reused *Event: renderers must not keep it.
type Renderer interface {
	Event(e *Event) error
	Summary(s *Summary) error
	Flush() error
}

// NewRenderer returns the renderer for format ("text", "json", "mermaid" or
// "none"), writing to w.
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
		return &mermaidRenderer{w: bw}, nil
	case "none":
		return noneRenderer{}, nil
	}
	return nil, fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

type jsonRenderer struct {
	w   *bufio.Writer
	enc *json.Encoder
}

func (r *jsonRenderer) Event(e *Event) error     { return r.enc.Encode(e) }
func (r *jsonRenderer) Summary(s *Summary) error { return r.enc.Encode(s) }
func (r *jsonRenderer) Flush() error             { return r.w.Flush() }

type noneRenderer struct{}

func (noneRenderer) Event(*Event) error     { return nil }
func (noneRenderer) Summary(*Summary) error { return nil }
func (noneRenderer) Flush() error           { return nil }

// textRenderer writes one readable line per event.
type textRenderer struct{ w *bufio.Writer }

func (r *textRenderer) Event(e *Event) error {
	_, err := fmt.Fprintf(r.w, "t=%-6d node %-3d %s\n", e.T, e.Node, Describe(e))
	return err
}

// Describe is the text of an event after its time and node.
func Describe(e *Event) string {
	switch e.Kind {
	case KindSend:
		return fmt.Sprintf("send  %s to %d", msgText(e.Msg), e.To)
	case KindRecv:
		return fmt.Sprintf("recv  %s from %d", msgText(e.Msg), e.From)
	case KindDrop:
		return fmt.Sprintf("DROP  %s %d->%d (%s)", msgText(e.Msg), e.From, e.To, e.Note)
	case KindDup:
		return fmt.Sprintf("DUP   %s %d->%d", msgText(e.Msg), e.From, e.To)
	case KindCrash:
		return "CRASH"
	case KindRecover:
		return "RECOVER (state lost)"
	case KindCmd:
		return "cmd   " + e.Cmd
	case KindState:
		return "state " + e.State + noteSuffix(e.Note)
	case KindEnterCS:
		return "ENTER critical section"
	case KindExitCS:
		return "EXIT  critical section"
	case KindLeader:
		return fmt.Sprintf("leader is id %d%s", e.LeaderID(), noteSuffix(e.Note))
	case KindNote:
		return "note  " + e.Note
	case KindViolation:
		return fmt.Sprintf("VIOLATION of %s: %s", e.Property, e.Detail)
	}
	return e.Kind
}

func noteSuffix(n string) string {
	if n == "" {
		return ""
	}
	return " (" + n + ")"
}

func msgText(m *Msg) string {
	if m == nil {
		return "?"
	}
	f := m.Fields()
	if string(f) == "{}" {
		return m.Type()
	}
	return m.Type() + string(f)
}

func (r *textRenderer) Summary(s *Summary) error {
	w := r.w
	fmt.Fprintf(w, "\n%s on %s, %d nodes, seed %d: %d steps, t=%d\n", s.Algorithm, s.Runtime, s.Nodes, s.Seed, s.Steps, s.Time)
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
		fmt.Fprintf(w, "%s%s %d", sep, t, s.ByType[t])
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
		fmt.Fprintf(w, "%s: %v\n", k, s.Extra[k])
	}
	for _, u := range s.Unapplied {
		fmt.Fprintf(w, "not applied: %s\n", u)
	}
	for _, v := range s.Verdicts {
		mark := "✓"
		if !v.OK {
			mark = "✗"
		}
		fmt.Fprintf(w, "%s %s%s\n", mark, v.Property, detailSuffix(v.Detail))
	}
	_, err := fmt.Fprintf(w, "replay: %s\n", s.Replay)
	return err
}

func detailSuffix(d string) string {
	if d == "" {
		return ""
	}
	return ": " + d
}

func (r *textRenderer) Flush() error { return r.w.Flush() }

// mermaidRenderer draws a sequence diagram (https://mermaid.js.org): an
// arrow per delivered message, a note per node event.
type mermaidRenderer struct {
	w       *bufio.Writer
	started bool
}

func (r *mermaidRenderer) Event(e *Event) error {
	if !r.started {
		r.started = true
		fmt.Fprintln(r.w, "sequenceDiagram")
	}
	var err error
	switch e.Kind {
	case KindRecv:
		_, err = fmt.Fprintf(r.w, "    N%d->>N%d: %s\n", e.From, e.To, mermaidSafe(msgText(e.Msg)))
	case KindDrop:
		_, err = fmt.Fprintf(r.w, "    N%d--xN%d: %s lost\n", e.From, e.To, mermaidSafe(msgText(e.Msg)))
	case KindSend, KindDup:
		// drawn at delivery
	default:
		_, err = fmt.Fprintf(r.w, "    Note over N%d: %s\n", e.Node, mermaidSafe(Describe(e)))
	}
	return err
}

func (r *mermaidRenderer) Summary(s *Summary) error {
	if !r.started {
		fmt.Fprintln(r.w, "sequenceDiagram")
	}
	_, err := fmt.Fprintf(r.w, "    %%%% %s: %d messages; replay: %s\n", s.Algorithm, s.Messages, s.Replay)
	return err
}

func (r *mermaidRenderer) Flush() error { return r.w.Flush() }

func mermaidSafe(s string) string {
	return strings.NewReplacer(";", ",", "#", "", "\n", " ").Replace(s)
}

// Read decodes an NDJSON log, calling onEvent for each event line and
// onSummary for the summary line.
func Read(r io.Reader, onEvent func(*Event) error, onSummary func(*Summary) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		var head struct {
			V    int    `json:"v"`
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(b, &head); err != nil {
			return fmt.Errorf("line %d: not a ringlab event: %v", line, err)
		}
		if head.V != Version {
			return fmt.Errorf("line %d: event schema version %d, this ringlab reads %d", line, head.V, Version)
		}
		if head.Kind == "summary" {
			var s Summary
			if err := json.Unmarshal(b, &s); err != nil {
				return fmt.Errorf("line %d: %v", line, err)
			}
			if err := onSummary(&s); err != nil {
				return err
			}
			continue
		}
		var e Event
		if err := json.Unmarshal(b, &e); err != nil {
			return fmt.Errorf("line %d: %v", line, err)
		}
		if err := onEvent(&e); err != nil {
			return err
		}
	}
	return sc.Err()
}
