package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"ringlab/internal/trace"
)

// Log is a saved run read back from one or more NDJSON files: its events
// in one order that keeps each file's order and puts every send before its
// receive, and what its header and summary lines say about the run.
type Log struct {
	Algorithm string // "election ring", from the header or the summary
	Replay    string // the command line that made the run
	Events    []*trace.Event
	Summary   *trace.Summary // nil when no file has a summary line
}

// Source is one named log to read.
type Source struct {
	Name string
	R    io.Reader
}

// logHeader is what Log needs of a log's header line.
type logHeader struct {
	Algorithm string `json:"algorithm"`
	Replay    string `json:"replay"`
}

// ReadLog reads and merges logs. Several files (one per process, say) are
// merged by their clocks: an event that happened before another (by its
// vector clock where both carry one, else by its Lamport clock) comes first,
// and a receive never before the send it receives. Its errors name the file
// and the line.
func ReadLog(srcs ...Source) (*Log, error) {
	l := &Log{}
	var files [][]*trace.Event
	for _, src := range srcs {
		evs, err := l.readOne(src)
		if err != nil {
			return nil, err
		}
		files = append(files, evs)
	}
	if len(files) == 1 {
		l.Events = files[0]
	} else {
		l.Events = merge(files)
	}
	if len(l.Events) == 0 {
		return nil, fmt.Errorf("%s: no events to check", names(srcs))
	}
	if l.Replay == "" {
		return nil, fmt.Errorf("%s: the log names no command that made it (no replay in a header or summary line)", names(srcs))
	}
	return l, nil
}

func names(srcs []Source) string {
	var b bytes.Buffer
	for i, s := range srcs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.Name)
	}
	return b.String()
}

// readOne reads one file; header lines are read here and blanked for
// trace.Read (which then counts lines the same).
func (l *Log) readOne(src Source) ([]*trace.Event, error) {
	data, err := io.ReadAll(src.R)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", src.Name, err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: the log is empty", src.Name)
	}
	lines := bytes.Split(data, []byte("\n"))
	for _, line := range lines { // the first line says what kind of log this is
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var first struct {
			V    *int   `json:"v"`
			Kind string `json:"kind"`
		}
		if json.Unmarshal(line, &first) == nil && first.V == nil && (first.Kind == "hop" || first.Kind == "done") {
			return nil, fmt.Errorf("%s: a log of the capitalizing ring (ringlab ring --format json), which has no checkers to run again", src.Name)
		}
		break
	}
	for i, line := range lines {
		var head struct {
			Kind string `json:"kind"`
		}
		if !bytes.Contains(line, []byte(`"header"`)) || json.Unmarshal(line, &head) != nil || head.Kind != "header" {
			continue
		}
		var h logHeader
		if err := json.Unmarshal(line, &h); err != nil {
			return nil, fmt.Errorf("%s: line %d: %v", src.Name, i+1, err)
		}
		if err := l.agree(src.Name, h.Algorithm, h.Replay); err != nil {
			return nil, err
		}
		lines[i] = nil
	}
	var evs []*trace.Event
	err = trace.Read(bytes.NewReader(bytes.Join(lines, []byte("\n"))),
		func(e *trace.Event) error {
			if e.Kind == "" {
				return fmt.Errorf("an event without a kind")
			}
			evs = append(evs, e)
			return nil
		},
		func(s *trace.Summary) error {
			if err := l.agree(src.Name, s.Algorithm, s.Replay); err != nil {
				return err
			}
			if l.Summary == nil {
				l.Summary = s
			}
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", src.Name, err)
	}
	return evs, nil
}

// agree records the run a line names, or refuses a second, different run.
func (l *Log) agree(name, algorithm, replay string) error {
	if algorithm != "" {
		if l.Algorithm != "" && l.Algorithm != algorithm {
			return fmt.Errorf("%s: a log of %q mixed with one of %q", name, algorithm, l.Algorithm)
		}
		l.Algorithm = algorithm
	}
	if replay != "" {
		if l.Replay != "" && l.Replay != replay {
			return fmt.Errorf("%s: a log of the run %q mixed with one of %q", name, replay, l.Replay)
		}
		l.Replay = replay
	}
	return nil
}

// msgKey identifies a message on a link for matching receives to sends.
type msgKey struct {
	from, to int
	msg      string
}

func keyOf(e *trace.Event) msgKey {
	k := msgKey{from: e.From, to: e.To}
	if e.Msg != nil {
		b, _ := e.Msg.MarshalJSON()
		k.msg = string(b)
	}
	return k
}

// merge interleaves several files' events, each file's in its own order.
// Of the files' next events it takes one that no other next event happened
// before (vector clocks), that is not a receive whose send is still to
// come, and of those the lowest Lamport clock (then the first file).
func merge(files [][]*trace.Event) []*trace.Event {
	sends := map[msgKey]int{} // sends not yet taken
	for _, f := range files {
		for _, e := range f {
			if e.Kind == trace.KindSend {
				sends[keyOf(e)]++
			}
		}
	}
	sent := map[msgKey]int{} // sent minus received, of those taken
	next := make([]int, len(files))
	var out []*trace.Event
	for {
		best := -1
		for pass := 0; pass < 2 && best < 0; pass++ { // pass 1: ignore the send rule
			for i, f := range files {
				if next[i] == len(f) {
					continue
				}
				e := f[next[i]]
				if pass == 0 && e.Kind == trace.KindRecv {
					k := keyOf(e)
					if sent[k] <= 0 && sends[k] > 0 {
						continue // its send is still in another file
					}
				}
				if best < 0 || before(e, files[best][next[best]]) {
					best = i
				}
			}
		}
		if best < 0 {
			return out
		}
		e := files[best][next[best]]
		next[best]++
		switch e.Kind {
		case trace.KindSend:
			sends[keyOf(e)]--
			sent[keyOf(e)]++
		case trace.KindRecv:
			sent[keyOf(e)]--
		}
		out = append(out, e)
	}
}

// before orders two files' next events: happened-before where both carry
// vector clocks, else the lower Lamport clock.
func before(a, b *trace.Event) bool {
	if len(a.VC) > 0 && len(a.VC) == len(b.VC) && !slices.Equal(a.VC, b.VC) {
		le, ge := true, true
		for i := range a.VC {
			le = le && a.VC[i] <= b.VC[i]
			ge = ge && a.VC[i] >= b.VC[i]
		}
		if le {
			return true
		}
		if ge {
			return false
		}
	}
	return a.LC < b.LC
}
