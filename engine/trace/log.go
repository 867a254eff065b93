package trace

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Handlers receive the lines of a log as ReadLog decodes them. A nil
// handler skips its lines. An error a handler returns stops the read and
// comes back prefixed with the line it was called for.
type Handlers struct {
	// Header, Event and Summary receive the header line, each event
	// line and the summary line.
	Header  func(*Header) error
	Event   func(*Event) error
	Summary func(*Summary) error
	// EventAt, if set, takes the events in place of Event, with the
	// (1-based) line each was read from.
	EventAt func(e *Event, line int) error
	// Context, if set, stops the read with an *Interrupted error soon
	// (within a few thousand lines) after it is done.
	Context context.Context
	// Dialects are the other programs' logs the read accepts besides the
	// engine's NDJSON (nil: the engine's alone). InDialect, if set, is
	// told at the first line of a dialect's log; an error it returns
	// refuses the log.
	Dialects  []Dialect
	InDialect func(d *Dialect) error
}

// A Dialect is a program's own NDJSON log that ReadLog hands over as an
// engine log: its lines carry no schema version "v" and one of Kinds as
// their "kind". The program that writes it provides it (the capitalizing
// ring's is ring.LogDialect); a command that reads logs is given the
// dialects it accepts.
type Dialect struct {
	Name   string   // names the log in errors: "capitalizing-ring"
	Source string   // what writes it, for a reader who holds another file: "the ring's --format json"
	Kinds  []string // the kinds of its lines
	// New returns the reader of one log.
	New func() DialectLog
}

// DialectLog reads one log of a Dialect. ReadLog calls Add for each line
// in order, with the line's kind and bytes; once every line is read it
// calls Replay, which hands the log over to h as a header, events
// (through h.EventAt with line 0, or h.Event) and a summary.
type DialectLog interface {
	// Add takes the next line of the log; an error refuses the log.
	Add(kind string, line []byte) error
	// Replay hands the whole log over to h.
	Replay(h Handlers) error
}

// sources lists what writes the dialects' logs: ", and X, and Y".
func sources(ds []Dialect) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(", and " + d.Source)
	}
	return b.String()
}

// dialectOf is the dialect whose line kind is kind, if any.
func dialectOf(ds []Dialect, kind string) *Dialect {
	for i := range ds {
		if slices.Contains(ds[i].Kinds, kind) {
			return &ds[i]
		}
	}
	return nil
}

// Interrupted is the error of a read stopped by its Context: how far it
// got, and the context's error (which it unwraps to).
type Interrupted struct {
	Lines int    // lines read (or events written) before it stopped
	What  string // "" (lines read) or what Lines counts
	Err   error  // the context's error
}

// Error says how far the read got and why it stopped.
func (e *Interrupted) Error() string {
	if e.What != "" {
		return fmt.Sprintf("interrupted after %d %s: %v", e.Lines, e.What, e.Err)
	}
	return fmt.Sprintf("interrupted after reading %d lines: %v", e.Lines, e.Err)
}

// Unwrap returns the context's error, so errors.Is(err,
// context.Canceled) holds.
func (e *Interrupted) Unwrap() error { return e.Err }

// EventKinds lists the kinds of events a run writes.
func EventKinds() []string { return append(kindNames[:len(kindNames):len(kindNames)], KindViolation) }

// KnownKind reports whether kind is the kind of an event a run writes.
func KnownKind(kind string) bool { return kindBit(kind) != 0 || kind == KindViolation }

// Read decodes an NDJSON log, calling onEvent for each event line and
// onSummary for the summary line. A header line is skipped (ReadLog
// hands it over).
func Read(r io.Reader, onEvent func(*Event) error, onSummary func(*Summary) error) error {
	return ReadLog(r, Handlers{Event: onEvent, Summary: onSummary})
}

// ReadLog decodes a ringlab log: the engine's NDJSON (a header, events, a
// summary; older logs have no header) or a log of one of h.Dialects, which
// the dialect hands over as a header, events and a summary. Its errors
// name the line and say what kind of line it found.
func ReadLog(r io.Reader, h Handlers) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	var in dialectRead // of the log being read, if it is a dialect's
	for sc.Scan() {
		line++
		if h.Context != nil && line%1024 == 0 && h.Context.Err() != nil {
			return &Interrupted{Lines: line - 1, Err: h.Context.Err()}
		}
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		var head struct {
			V    int    `json:"v"`
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(b, &head); err != nil {
			return fmt.Errorf("line %d: not a ringlab log line (not a JSON object: %v)", line, err)
		}
		if d := dialectOf(h.Dialects, head.Kind); head.V == 0 && d != nil {
			if err := in.add(h, d, head.Kind, b, line); err != nil {
				return fmt.Errorf("line %d: %w", line, err)
			}
			continue
		}
		if in.log != nil {
			return fmt.Errorf("line %d: a %q line inside a %s log", line, head.Kind, in.dialect.Name)
		}
		if err := h.engineLine(head.V, head.Kind, b, line); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if in.log != nil {
		return in.log.Replay(h)
	}
	return nil
}

// dialectRead is a log of another program's being read: the dialect its
// first line named, and what the dialect gathered so far.
type dialectRead struct {
	dialect *Dialect
	log     DialectLog
}

// add hands the line of number line, of dialect d and kind kind, to the
// log being read; a first line starts it (h.InDialect hears of it). A
// dialect's line inside an engine log, or inside another dialect's, is an
// error.
func (in *dialectRead) add(h Handlers, d *Dialect, kind string, b []byte, line int) error {
	switch {
	case in.log == nil && line > 1:
		return fmt.Errorf("a %s %q line inside an engine log", d.Name, kind)
	case in.log == nil:
		if h.InDialect != nil {
			if err := h.InDialect(d); err != nil {
				return err
			}
		}
		in.dialect, in.log = d, d.New()
	case d != in.dialect:
		return fmt.Errorf("a %s %q line inside a %s log", d.Name, kind, in.dialect.Name)
	}
	if err := in.log.Add(kind, b); err != nil {
		return fmt.Errorf("%s log: %v", in.dialect.Name, err)
	}
	return nil
}

// engineLine decodes line number line of the engine's NDJSON, of schema
// version v and kind kind, and hands it to its handler.
func (h Handlers) engineLine(v int, kind string, b []byte, line int) error {
	if v != Version {
		if v == 0 {
			return fmt.Errorf("not a ringlab log line: kind %q and no schema version \"v\" (ringlab reads the NDJSON of --format json or --events%s)", kind, sources(h.Dialects))
		}
		return fmt.Errorf("event schema version %d, this ringlab reads %d", v, Version)
	}
	switch kind {
	case KindHeader:
		var hd Header
		if err := json.Unmarshal(b, &hd); err != nil {
			return fmt.Errorf("header: %v", err)
		}
		if hd.Nodes < 0 || hd.Nodes > MaxNodes {
			return fmt.Errorf("header: %d nodes is out of range", hd.Nodes)
		}
		if h.Header != nil {
			return h.Header(&hd)
		}
	case "summary":
		var s Summary
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("summary: %v", err)
		}
		if h.Summary != nil {
			return h.Summary(&s)
		}
	default:
		var e Event
		if err := json.Unmarshal(b, &e); err != nil {
			return err
		}
		if e.Node < 0 || e.From < 0 || e.To < 0 || max(e.Node, e.From, e.To) > MaxNodes {
			return fmt.Errorf("node index out of 0..%d", MaxNodes)
		}
		e.splitCommand()
		switch {
		case h.EventAt != nil:
			return h.EventAt(&e, line)
		case h.Event != nil:
			return h.Event(&e)
		}
	}
	return nil
}

// MaxNodes bounds the node indices a log may name (the largest runs have
// two million nodes).
const MaxNodes = 1 << 22

// Log is a whole run log in memory.
type Log struct {
	Header    *Header  // never nil: made up from the events and summary when the log has none
	HasHeader bool     // whether the log had a header line
	Events    []Event  // the events, in order, violations included
	Summary   *Summary // nil when the log has no summary line
}

// MaxLoad bounds the events Load keeps (a picture of more is unreadable).
const MaxLoad = 5_000_000

// Load reads a whole log (see ReadLog). A log with no events and no header
// is an error that says what the file held.
// Dialects are the other logs it accepts besides the engine's.
func Load(r io.Reader, dialects ...Dialect) (*Log, error) {
	return LoadContext(context.Background(), r, dialects...)
}

// LoadContext is Load stopped by ctx (an *Interrupted error).
func LoadContext(ctx context.Context, r io.Reader, dialects ...Dialect) (*Log, error) {
	l := &Log{}
	err := ReadLog(r, Handlers{
		Context:  ctx,
		Dialects: dialects,
		Header:   func(h *Header) error { l.Header, l.HasHeader = h, true; return nil },
		Event: func(e *Event) error {
			if len(l.Events) >= MaxLoad {
				return fmt.Errorf("more than %d events: too many to draw; narrow the run (fewer nodes or requests)", MaxLoad)
			}
			l.Events = append(l.Events, *e)
			return nil
		},
		Summary: func(s *Summary) error { l.Summary = s; return nil },
	})
	if err != nil {
		return nil, err
	}
	switch {
	case !l.HasHeader && len(l.Events) == 0 && l.Summary == nil:
		return nil, errors.New("the log is empty")
	case !l.HasHeader && len(l.Events) == 0 && l.Summary.Algorithm == "":
		return nil, errors.New("the log holds only a summary line with no algorithm, no header and no events: nothing to draw")
	case !l.HasHeader && len(l.Events) == 0:
		return nil, fmt.Errorf("the log holds only the summary of a %s run (no header, no events): nothing to draw; save the whole log with --format json or --events FILE", l.Summary.Algorithm)
	}
	if l.Header == nil {
		l.Header = l.madeUpHeader()
	}
	n := 0
	for i := range l.Events {
		n = max(n, l.Events[i].Node, l.Events[i].From, l.Events[i].To)
	}
	l.Header.Nodes = max(l.Header.Nodes, n)
	return l, nil
}

func (l *Log) madeUpHeader() *Header {
	h := &Header{V: Version, Kind: KindHeader, Topology: TopoComplete}
	if s := l.Summary; s != nil {
		h.Algorithm, h.Runtime, h.Nodes, h.Seed, h.Replay = s.Algorithm, s.Runtime, s.Nodes, s.Seed, s.Replay
	}
	return h
}

// Render writes l through r: header, events, summary.
func (l *Log) Render(r Renderer) error { return l.RenderContext(context.Background(), r) }

// RenderContext is Render stopped by ctx (an *Interrupted error, counting
// the events written) soon after it is done.
func (l *Log) RenderContext(ctx context.Context, r Renderer) error {
	if hr, ok := r.(HeaderRenderer); ok {
		if err := hr.Header(l.Header); err != nil {
			return err
		}
	}
	for i := range l.Events {
		if i%4096 == 0 && ctx.Err() != nil {
			_ = r.Flush()
			return &Interrupted{Lines: i, Err: ctx.Err(), What: "events written"}
		}
		if err := r.Event(&l.Events[i]); err != nil {
			return err
		}
	}
	if l.Summary != nil {
		if err := r.Summary(l.Summary); err != nil {
			return err
		}
	}
	return r.Flush()
}
