package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"ringlab/engine/trace"
)

// MaxLogBytes is the largest log the server serves. A 100,000-event
// election log is about 15 MB.
const MaxLogBytes = 256 << 20

// maxLine is the longest line the scanner accepts (vector clocks of big
// runs make long lines).
const maxLine = 16 << 20

// Info is what the list page says about a log: read once from its lines,
// its text passed through trace.OneLine as every renderer's is.
type Info struct {
	Algorithm  string   // the algorithm's name, from the header or summary
	Nodes      int      // the number of nodes
	Events     int      // event lines, violations included
	Violations int      // violation events
	Header     bool     // the log starts with a header line
	Summary    bool     // the log ends with a summary line
	Failed     []string // the properties whose verdict failed
	Replay     string   // the command line that repeats the run
}

// line holds the fields of a log line the list page needs.
type line struct {
	Kind      string `json:"kind"`
	Algorithm string `json:"algorithm"`
	Nodes     int    `json:"nodes"`
	Replay    string `json:"replay"`
	Verdicts  []struct {
		Property string `json:"property"`
		OK       bool   `json:"ok"`
	} `json:"verdicts"`
}

// Scan reads an NDJSON run log and returns what the list page shows. It
// fails on a line that is not a JSON object, so that a file named by
// mistake (a text transcript, a binary) is refused at start-up.
func Scan(r io.Reader) (Info, error) {
	var info Info
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	n := 0
	for sc.Scan() {
		n++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var l line
		if b[0] != '{' || json.Unmarshal(b, &l) != nil {
			return info, fmt.Errorf("line %d is not a JSON object: not an NDJSON run log (write one with --format json or --events FILE)", n)
		}
		switch l.Kind {
		case "header":
			if info.Events > 0 || info.Header {
				return info, fmt.Errorf("line %d: a header after the first event", n)
			}
			info.Header = true
			info.Algorithm, info.Nodes, info.Replay = trace.OneLine(l.Algorithm), l.Nodes, trace.OneLine(l.Replay)
		case "summary":
			info.Summary = true
			if l.Algorithm != "" {
				info.Algorithm = trace.OneLine(l.Algorithm)
			}
			if l.Nodes > 0 {
				info.Nodes = l.Nodes
			}
			if l.Replay != "" {
				info.Replay = trace.OneLine(l.Replay)
			}
			info.Failed = info.Failed[:0]
			for _, v := range l.Verdicts {
				if !v.OK {
					info.Failed = append(info.Failed, trace.OneLine(v.Property))
				}
			}
		case "":
			return info, fmt.Errorf("line %d has no \"kind\": not a run log event", n)
		default:
			info.Events++
			if l.Kind == "violation" {
				info.Violations++
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return info, fmt.Errorf("line %d is longer than %d MB", n+1, maxLine>>20)
		}
		return info, err
	}
	if info.Events == 0 && !info.Summary {
		return info, errors.New("the log has no events")
	}
	return info, nil
}
