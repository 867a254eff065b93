package trace

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// ShivizRegex is the first line of a ShiViz log: how ShiViz
// (https://bestchai.bitbucket.io/shiviz/) splits each two-line entry into
// the host, its vector clock and the event text.
const ShivizRegex = `(?<host>\S*) (?<clock>{.*})\n(?<event>.*)`

// shivizRenderer writes a log ShiViz accepts: its regex line, an empty
// line, then per event "host {clock}" and the event's text. The clocks
// follow ShiViz's rules whatever the log carries: a host's own entry is
// 1 at its first event and goes up by exactly one per event, a receive
// takes the maximum with its send's clock, and an entry for another host
// never names an event that host does not have.
type shivizRenderer struct{ collector }

func (r *shivizRenderer) Flush() error { return r.flush(r.draw) }

// shivizHost makes a name one ShiViz host token: no spaces, no braces.
func shivizHost(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '{' || r == '}' || r == '"' || r == '\\' {
			return '_'
		}
		return r
	}, s)
	if s == "" {
		return "_"
	}
	return s
}

// shivizHosts names nodes 1..n with distinct host tokens.
func shivizHosts(h *Header) []string {
	hosts := make([]string, h.Nodes+1)
	seen := map[string]bool{}
	for i := 1; i <= h.Nodes; i++ {
		s := shivizHost(h.Name(i))
		if seen[s] {
			s = fmt.Sprintf("%s_%d", s, i)
		}
		seen[s] = true
		hosts[i] = s
	}
	return hosts
}

func (r *shivizRenderer) draw() error {
	h := r.header()
	hosts := shivizHosts(h)
	ms, byEvent := messages(r.ev)
	w := r.w
	fmt.Fprintf(w, "%s\n\n", ShivizRegex)
	return hostClocks(r.ev, ms, byEvent, h.Nodes, func(i int, c []uint32) error {
		e := &r.ev[i]
		var b strings.Builder
		b.WriteByte('{')
		first := true
		for k, v := range c {
			if v == 0 {
				continue
			}
			if !first {
				b.WriteString(", ")
			}
			first = false
			key, _ := json.Marshal(hosts[k+1])
			fmt.Fprintf(&b, "%s:%d", key, v)
		}
		b.WriteByte('}')
		text := fmt.Sprintf("t=%s %s", h.FormatTime(e.T), DescribeWith(e, h.Name))
		_, err := fmt.Fprintf(w, "%s %s\n%s\n", hosts[e.Node], b.String(), OneLine(text))
		return err
	})
}
