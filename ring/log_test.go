package ring

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"ringlab/engine/trace"
)

// TestRingLog: the capitalizing ring's hop lines read as a ring of
// goroutines passing one message.
func TestRingLog(t *testing.T) {
	in := `{"kind":"hop","hop":1,"node":1,"received":"ab","sent":"Ab","changed":0}
{"kind":"hop","hop":2,"node":2,"received":"Ab","sent":"AB","changed":1}
{"kind":"hop","hop":3,"node":1,"received":"AB","sent":"AB","changed":-1}
{"kind":"done","hops":3,"message":"AB"}
`
	l, err := trace.Load(strings.NewReader(in), LogDialect())
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range l.Events {
		kinds = append(kinds, fmt.Sprintf("%d:%s", e.Node, e.Kind))
	}
	want := "1:cmd 1:note 1:send 2:recv 2:note 2:send 1:recv"
	if got := strings.Join(kinds, " "); got != want || l.Header.Nodes != 2 || l.Header.Topology != "ring" || l.Summary.Messages != 2 || !l.Summary.Verdicts[0].OK {
		t.Errorf("events %s (want %s), header %+v, summary %+v", got, want, l.Header, l.Summary)
	}
}

// TestRingLogErrors: a broken ring log says which line and what.
func TestRingLogErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"kind":"hop","hop":1,"node":0}`:                                                              "line 1: capitalizing-ring log: hop 1 at goroutine 0: goroutines are numbered from 1",
		"{\"kind\":\"hop\",\"hop\":1,\"node\":1}\n{\"v\":1,\"kind\":\"send\"}":                         `line 2: a "send" line inside a capitalizing-ring log`,
		"{\"kind\":\"done\",\"hops\":0}\n{\"kind\":\"hop\",\"hop\":1,\"node\":1}":                      `line 2: capitalizing-ring log: a "hop" line after the last line`,
		"{\"kind\":\"hop\",\"hop\":1,\"node\":1}\n{\"kind\":\"interrupted\",\"hops\":1,\"message\":3}": "line 2: capitalizing-ring log: json",
	} {
		if _, err := trace.Load(strings.NewReader(in), LogDialect()); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%q) = %v, want an error with %q", in, err, want)
		}
	}
}

// FuzzRingLog: no input makes the ring log's reader panic, and what it
// reads renders in every format.
func FuzzRingLog(f *testing.F) {
	f.Add([]byte(`{"kind":"hop","hop":1,"node":1,"received":"a","sent":"A","changed":0}`))
	f.Add([]byte("{\"kind\":\"hop\",\"hop\":1,\"node\":2,\"received\":\"a\",\"sent\":\"A\",\"changed\":0}\n{\"kind\":\"interrupted\",\"hops\":1,\"message\":\"A\"}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := trace.Load(bytes.NewReader(b), LogDialect())
		if err != nil {
			return
		}
		for _, format := range []string{"text", "mermaid", "svg", "shiviz", "chrome-trace"} {
			r, _ := trace.NewRenderer(format, &bytes.Buffer{})
			if err := l.Render(r); err != nil {
				t.Fatal(err)
			}
		}
	})
}
