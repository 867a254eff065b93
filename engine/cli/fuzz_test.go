package cli

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/engine/run"
	"ringlab/engine/trace"
)

// The parsers of the engine's flag values: whatever the input, no panic;
// what they accept is in range and reads back from its canonical form.

func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"1", "1-10", " 3 - 4 ", "0", "5-4", "-1", "1-1000001", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseLatency(s)
		if err != nil {
			return
		}
		if d.Min < 1 || d.Max < d.Min || d.Max > 1_000_000 {
			t.Fatalf("%q: accepted out of range %+v", s, d)
		}
		back, err := ParseLatency(fmt.Sprintf("%d-%d", d.Min, d.Max))
		if err != nil || back != d {
			t.Fatalf("%q: %+v does not round-trip: %+v, %v", s, d, back, err)
		}
	})
}

// FuzzParseAt covers --crash and --restart values (I@T).
func FuzzParseAt(f *testing.F) {
	for _, s := range []string{"2@5", "1@0", "9@1", "2@-1", "@", "2@", " 3@4", "3@ 4"} {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = 1 + abs(n)%1000
		i, at, err := parseAt(s, n)
		if err != nil {
			return
		}
		if i < 1 || i > n || at < 0 {
			t.Fatalf("%q (n=%d): accepted node %d tick %d", s, n, i, at)
		}
		i2, at2, err := parseAt(fmt.Sprintf("%d@%d", i, at), n)
		if err != nil || i2 != i || at2 != at {
			t.Fatalf("%q: does not round-trip: %d@%d, %v", s, i2, at2, err)
		}
	})
}

func FuzzParsePartition(f *testing.F) {
	for _, s := range []string{"1,2@5-30", "3@1-2", "1,1@5-30", "1,2@30-5", "@", "1,2", "1,,2@1-2"} {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = 1 + abs(n)%1000
		p, err := parsePartition(s, n)
		if err != nil {
			return
		}
		seen := map[int]bool{}
		var nodes []string
		for _, i := range p.Group {
			if i < 1 || i > n || seen[i] {
				t.Fatalf("%q (n=%d): accepted group %v", s, n, p.Group)
			}
			seen[i] = true
			nodes = append(nodes, fmt.Sprint(i))
		}
		if len(p.Group) == 0 || p.From < 0 || p.Until <= p.From {
			t.Fatalf("%q: accepted %+v", s, p)
		}
		back, err := parsePartition(fmt.Sprintf("%s@%d-%d", strings.Join(nodes, ","), p.From, p.Until), n)
		if err != nil || !slices.Equal(back.Group, p.Group) || back.From != p.From || back.Until != p.Until {
			t.Fatalf("%q: %+v does not round-trip: %+v, %v", s, p, back, err)
		}
	})
}

func FuzzParseSlow(f *testing.F) {
	for _, s := range []string{"2+3@5-30", "1+1@0-1", "2+0@1-2", "2+3@", "+@-", "2+1000001@1-2"} {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = 1 + abs(n)%1000
		sl, err := parseSlow(s, n)
		if err != nil {
			return
		}
		if sl.Node < 1 || sl.Node > n || sl.Extra < 1 || sl.Extra > 1_000_000 || sl.From < 0 || sl.Until <= sl.From {
			t.Fatalf("%q: accepted %+v", s, sl)
		}
		back, err := parseSlow(fmt.Sprintf("%d+%d@%d-%d", sl.Node, sl.Extra, sl.From, sl.Until), n)
		if err != nil || back != sl {
			t.Fatalf("%q: %+v does not round-trip: %+v, %v", s, sl, back, err)
		}
	})
}

func FuzzParseSchedule(f *testing.F) {
	for _, s := range []string{"0:0", "1:3", "0:5,1:3,2:7,4:3,5:6", "1:2,1:3", "1:-1", ":", "12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return // an index up to 10^7 allocates its decisions; keep runs quick
		}
		cs, err := ParseSchedule(s)
		if err != nil {
			return
		}
		back, err := ParseSchedule(FormatSchedule(cs))
		trim := func(x []int64) []int64 {
			for len(x) > 0 && x[len(x)-1] == 0 {
				x = x[:len(x)-1]
			}
			return x
		}
		if err != nil || !slices.Equal(trim(back), trim(cs)) {
			t.Fatalf("%q: %v does not round-trip through %q: %v, %v", s, cs, FormatSchedule(cs), back, err)
		}
	})
}

// FuzzSplitCommand: a command line Replay writes splits back into its
// words, and no input makes SplitCommand panic.
func FuzzSplitCommand(f *testing.F) {
	f.Add("ringlab\x00election\x00--partition\x001,2@5-30\x00it's")
	f.Add("a b\x00\x00'\"$\n")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = SplitCommand(s)
		if !utf8.ValidString(s) {
			return
		}
		words := strings.Split(s, "\x00")
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = quote(w)
		}
		got, err := SplitCommand(strings.Join(quoted, " "))
		if err != nil || !slices.Equal(got, words) {
			t.Fatalf("%q: quoted as %q, split back into %q (%v)", words, strings.Join(quoted, " "), got, err)
		}
	})
}

// FuzzReadLog: any bytes as a log (split in two files, so that merging
// is fuzzed too) give a clean one-line error or a history that passed
// validation: known kinds, nodes in range, each receive after its send.
func FuzzReadLog(f *testing.F) {
	f.Add([]byte(`{"v":1,"kind":"header","algorithm":"election ring","nodes":2,"replay":"ringlab election ring --seed 1"}` + "\n" +
		`{"v":1,"seq":1,"t":0,"node":1,"kind":"send","from":1,"to":2,"msg":{"type":"ELECTION","id":3},"lc":1,"vc":[1,0]}` + "\n" +
		`{"v":1,"seq":2,"t":1,"node":2,"kind":"recv","from":1,"to":2,"msg":{"type":"ELECTION","id":3},"lc":2,"vc":[1,1]}` + "\n"))
	f.Add([]byte(`{"v":1,"kind":"summary","replay":"x"}`))
	f.Add([]byte("\n\n"))
	f.Add([]byte(`{"v":1,"kind":"header","algorithm":"election ring","nodes":2,"replay":"ringlab node --index 1 --initiator"}` + "\n" +
		`{"v":1,"seq":1,"t":5,"node":1,"kind":"cmd","cmd":"start","lc":1}` + "\n" +
		`{"v":1,"seq":2,"t":6,"node":1,"kind":"send","from":1,"to":2,"msg":{"type":"ELECTION","id":3},"lc":2}` + "\n" +
		`{"v":1,"kind":"header","algorithm":"election ring","nodes":2,"replay":"ringlab node --index 2"}` + "\n" +
		`{"v":1,"seq":1,"t":7,"node":2,"kind":"recv","from":1,"to":2,"msg":{"type":"ELECTION","id":3},"lc":3}` + "\n"))
	areas := []NodeArea{{Name: "election", Algorithms: []string{"ring"}, NodeRuns: NodeRuns{Flags: []string{"ids", "nodes", "lang"}}}}
	f.Fuzz(func(t *testing.T, b []byte) {
		half := bytes.Index(b, []byte("\n{\"v\":1,\"kind\":\"header\""))
		if half < 0 {
			half = len(b) / 2
		}
		// one file, streamed: what Each hands over passes the same checks
		if l, err := run.ReadLog(t.Context(), run.ReadOptions{Stream: true, NodeCommand: NodeLogs(areas)}, run.Source{Name: "s", R: bytes.NewReader(b)}); err == nil {
			var evs []*trace.Event
			err := l.Each(t.Context(), func(e *trace.Event) error { evs = append(evs, e); return nil })
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			if err == nil {
				checkHistory(t, evs, l.Nodes)
			}
		} else if strings.Contains(err.Error(), "\n") {
			t.Fatalf("a multi-line error: %q", err)
		}
		l, err := run.ReadLog(t.Context(), run.ReadOptions{MaxBytes: 1 << 16, NodeCommand: NodeLogs(areas)},
			run.Source{Name: "a", R: bytes.NewReader(b[:half])}, run.Source{Name: "b", R: bytes.NewReader(b[half:])})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		if len(l.Events) == 0 || l.Replay == "" {
			t.Fatalf("accepted a log with %d events and replay %q", len(l.Events), l.Replay)
		}
		checkHistory(t, l.Events, l.Nodes)
	})
}

// checkHistory fails t unless evs are a history: known kinds, nodes in
// 1..n (n 0: unknown), each receive after a send of its message.
func checkHistory(t *testing.T, evs []*trace.Event, n int) {
	t.Helper()
	// a message is its link and its JSON
	keyOf := func(e *trace.Event) string {
		b := []byte("null")
		if e.Msg != nil {
			b, _ = e.Msg.MarshalJSON()
		}
		return fmt.Sprintf("%d>%d %s", e.From, e.To, b)
	}
	inFlight := map[string]int{}
	for _, e := range evs {
		if !trace.KnownKind(e.Kind) || e.Node < 1 || (n > 0 && e.Node > n) {
			t.Fatalf("accepted an event of kind %q at node %d of %d", e.Kind, e.Node, n)
		}
		switch e.Kind {
		case trace.KindSend, trace.KindDup:
			inFlight[keyOf(e)]++
		case trace.KindRecv:
			if inFlight[keyOf(e)] == 0 {
				t.Fatalf("accepted a receive before its send: %+v", e)
			}
			inFlight[keyOf(e)]--
		}
	}
}

func abs(n int) int {
	if n < 0 {
		if n == -n {
			return 0
		}
		return -n
	}
	return n
}

// FuzzParseFlags drives Parse as a command line does, with any value for
// each engine flag (durations included): it accepts or gives a one-line
// usage error, never a panic or another kind of error.
func FuzzParseFlags(f *testing.F) {
	f.Add("1-10", "2@5", "2@7", "1,2@5-30", "3+2@1-9", "1s", "random", "0:1")
	f.Add("3", "", "2@1", "1,,2@5-30", "+@", "-1ms", "fifo", "1:1,1:2")
	f.Add("1", "1@0", "", "", "", "1h", "lifo", "")
	f.Fuzz(func(t *testing.T, latency, crash, restart, partition, slow, timeout, policy, schedule string) {
		var args []string
		for _, kv := range [][2]string{{"--latency", latency}, {"--crash", crash}, {"--restart", restart},
			{"--partition", partition}, {"--slow", slow}, {"--timeout", timeout}, {"--tick", timeout},
			{"--policy", policy}, {"--schedule", schedule}} {
			if kv[1] != "" {
				args = append(args, kv[0], kv[1])
			}
		}
		for _, runtime := range []string{"sim", "live"} {
			var perr error
			called := false
			app := &ucli.App{Name: "ringlab", Writer: io.Discard, ErrWriter: io.Discard,
				Commands: []*ucli.Command{{Name: "x", Flags: Flags(), Action: func(c *ucli.Context) error {
					called = true
					_, perr = Parse(c, 4)
					return perr
				}}},
				ExitErrHandler: func(*ucli.Context, error) {},
			}
			err := app.Run(append([]string{"ringlab", "x", "--runtime", runtime}, args...))
			if !called { // urfave/cli refused a value (a bad duration): its own usage error
				continue
			}
			if perr != nil && (cliutil.Code(perr) != cliutil.ExitUsage || strings.Contains(perr.Error(), "\n")) {
				t.Fatalf("%q: %v is not a one-line usage error", args, perr)
			}
			_ = err
		}
	})
}
