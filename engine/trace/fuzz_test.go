package trace

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRead: whatever the bytes, Read gives events and summaries or an
// error on one line, never a panic; every event it gives writes back as a
// line that reads back to the same line.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"v":1,"seq":1,"t":0,"node":1,"kind":"send","from":1,"to":2,"msg":{"type":"ELECTION","id":3},"lc":1,"vc":[1,0]}` + "\n" +
		`{"v":1,"seq":2,"t":1,"node":2,"kind":"leader","leader":3,"note":"x","lc":2}` + "\n" +
		`{"v":1,"kind":"summary","algorithm":"election ring","verdicts":[{"property":"termination","ok":true}],"replay":"ringlab election ring"}` + "\n"))
	f.Add([]byte(`{"v":1,"kind":"send","msg":{"type":""}}`))
	f.Add([]byte(`{"v":2}`))
	f.Add([]byte("not json\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var events []*Event
		err := Read(bytes.NewReader(b), func(e *Event) error { events = append(events, e); return nil },
			func(*Summary) error { return nil })
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		for _, e := range events {
			line, err := json.Marshal(e)
			if err != nil {
				t.Fatalf("event %+v does not write back: %v", e, err)
			}
			var again []*Event
			if err := Read(bytes.NewReader(line), func(e *Event) error { again = append(again, e); return nil },
				func(*Summary) error { return nil }); err != nil || len(again) != 1 {
				t.Fatalf("%s does not read back: %v", line, err)
			}
			line2, _ := json.Marshal(again[0])
			if !bytes.Equal(line, line2) {
				t.Fatalf("round trip changed the line:\n%s\n%s", line, line2)
			}
		}
	})
}

// FuzzCommand: a cmd event read from a log shows the command it was
// written with, whether or not it carried a parameter inside it
// ("request@115" reads as Cmd "request", Arg 115), and one written with
// an Arg reads back with it.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{"request", "request@115", "a@0", "a@007", "a@+5", "@3", "x@1@2", "start"} {
		f.Add(s, 0)
	}
	f.Add("request", 110)
	f.Fuzz(func(t *testing.T, cmd string, arg int) {
		b, err := json.Marshal(Event{V: Version, Node: 1, Kind: KindCmd, Cmd: cmd, Arg: arg})
		if err != nil {
			return
		}
		var got *Event
		err = Read(bytes.NewReader(b), func(e *Event) error { got = e; return nil }, nil)
		if err != nil || got == nil || !utf8.ValidString(cmd) {
			return // not a command this log holds as written (bad UTF-8 is replaced)
		}
		if arg != 0 && (got.Cmd != cmd || got.Arg != arg) {
			t.Fatalf("written %q with Arg %d, read %q with Arg %d", cmd, arg, got.Cmd, got.Arg)
		}
		if arg == 0 && got.Command() != cmd {
			t.Fatalf("written %q, shown %q (Cmd %q, Arg %d)", cmd, got.Command(), got.Cmd, got.Arg)
		}
	})
}
