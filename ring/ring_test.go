package ring

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unicode"

	"go.uber.org/goleak"

	"ringlab/internal/racebuild"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// safeImpls are the implementations that may run inside the test process;
// the racy one runs only in a -race subprocess (racy_test.go) or, without the
// detector, in TestRacyWithoutDetector.
var safeImpls = []string{ImplChan, ImplCond}

// lowerCount is the number of letters the exercise says will change.
func lowerCount(s string) int {
	c := 0
	for _, r := range s {
		if isLower(r) {
			c++
		}
	}
	return c
}

// checkRun runs cfg and checks every rule of the exercise on the hops it saw.
func checkRun(t *testing.T, cfg Config) Result {
	t.Helper()
	var hops []Hop
	res, err := Run(context.Background(), cfg, func(h Hop) { hops = append(hops, h) })
	if err != nil {
		t.Fatalf("%+v: %v", cfg, err)
	}
	c := lowerCount(cfg.Message)
	wantHops := max(c, 1) + cfg.Nodes - 1
	if len(hops) != wantHops || res.Hops != wantHops {
		t.Fatalf("%s n=%d %q: %d hops (result %d), want max(%d,1)+%d-1 = %d", cfg.Impl, cfg.Nodes, cfg.Message, len(hops), res.Hops, c, cfg.Nodes, wantHops)
	}
	changed := 0
	msg := cfg.Message
	for k, h := range hops {
		// Node i always passes to node i+1, the last to the first.
		if want := k%cfg.Nodes + 1; h.Node != want || h.Hop != k+1 {
			t.Fatalf("hop %d went to goroutine %d (hop field %d), want goroutine %d", k+1, h.Node, h.Hop, want)
		}
		if h.Received != msg {
			t.Fatalf("hop %d received %q, but the previous hop sent %q", k+1, h.Received, msg)
		}
		// Exactly the first lower-case character is upper-cased.
		rs := []rune(h.Received)
		first := -1
		for i, r := range rs {
			if isLower(r) {
				first = i
				break
			}
		}
		if h.Changed != first {
			t.Fatalf("hop %d changed index %d, the first lower-case letter is at %d", k+1, h.Changed, first)
		}
		if first >= 0 {
			rs[first] = unicode.ToUpper(rs[first])
			changed++
		}
		if h.Sent != string(rs) {
			t.Fatalf("hop %d sent %q, want %q", k+1, h.Sent, string(rs))
		}
		msg = h.Sent
	}
	if changed != c || res.Changes != c {
		t.Fatalf("%d hops changed a letter (result says %d), want %d", changed, res.Changes, c)
	}
	if lowerCount(res.Message) != 0 || res.Message != msg {
		t.Fatalf("final message %q is not the all-upper-case message %q", res.Message, msg)
	}
	return res
}

func TestRingRules(t *testing.T) {
	messages := []string{
		"hello",
		"a",
		"ALREADY UPPER",                     // no lower-case letter: one lap only
		"mixed Case 123, with punctuation!", // caseless characters count as upper
		"ação à moda do Porto: ñandú, ÿ, σς", // Unicode lower-case letters
		"straße",                              // ß has no simple upper case: it stays
		RandomMessage(7, 80),                  // the default shape
		strings.Repeat("xy", 300),             // longer than many laps
		"Z",                                   // one upper-case letter
		"\u01c5 titlecase \u01c6 dz digraphs", // ǅ is title case, ǆ lower
	}
	for _, impl := range safeImpls {
		for _, n := range []int{1, 2, 3, 30, 101} {
			for _, m := range messages {
				t.Run(fmt.Sprintf("%s/n=%d/%.10q", impl, n, m), func(t *testing.T) {
					checkRun(t, Config{Nodes: n, Message: m, Impl: impl})
				})
			}
		}
	}
}

func TestHopsEqualLowerCaseLetters(t *testing.T) {
	// A decision the exercise leaves open: hops that change a letter = lower-case letters at the start.
	for seed := int64(1); seed <= 20; seed++ {
		msg := RandomMessage(seed, 80+int(seed))
		res := checkRun(t, Config{Nodes: 30, Message: msg, Impl: ImplChan})
		if res.Changes != len(msg) {
			t.Fatalf("seed %d: %d changes for %d lower-case letters", seed, res.Changes, len(msg))
		}
	}
}

func TestRandomMessageIsReproducible(t *testing.T) {
	a, b := RandomMessage(7, 80), RandomMessage(7, 80)
	if a != b || len(a) != 80 || lowerCount(a) != 80 {
		t.Fatalf("RandomMessage(7, 80) = %q then %q", a, b)
	}
	if RandomMessage(8, 80) == a {
		t.Fatal("seeds 7 and 8 drew the same message")
	}
}

// TestDefaultDelayTiming runs the default 1 s delay on synctest's fake clock:
// 80 lower-case letters take exactly 80 s, and the last lap takes none.
func TestDefaultDelayTiming(t *testing.T) {
	for _, impl := range safeImpls {
		t.Run(impl, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				res, err := Run(t.Context(), Config{Nodes: 30, Delay: time.Second, Message: RandomMessage(1, 80), Impl: impl}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got := time.Since(start); got != 80*time.Second {
					t.Fatalf("run took %v of fake time, want 80s", got)
				}
				if res.Hops != 80+29 {
					t.Fatalf("%d hops, want 109", res.Hops)
				}
			})
		})
	}
}

// TestCancelStopsEveryGoroutine cancels a run mid-way (as Ctrl-C does) and
// checks Run reports how far the message got and leaves no goroutine behind.
func TestCancelStopsEveryGoroutine(t *testing.T) {
	for _, impl := range safeImpls {
		t.Run(impl, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(t.Context())
				time.AfterFunc(10*time.Second+time.Second/2, cancel)
				res, err := Run(ctx, Config{Nodes: 30, Delay: time.Second, Message: RandomMessage(1, 80), Impl: impl}, nil)
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("err = %v, want context.Canceled", err)
				}
				// Hop k happens at (k-1) s, so hops 1..11 are done at 10.5 s.
				if res.Hops != 11 || res.LastNode != 11 || res.Changes != 11 {
					t.Fatalf("interrupted at hop %d (goroutine %d, %d changes), want 11", res.Hops, res.LastNode, res.Changes)
				}
				if want := strings.ToUpper(res.Message[:11]); res.Message[:11] != want || lowerCount(res.Message) != 69 {
					t.Fatalf("partial message %q", res.Message)
				}
			})
		})
	}
}

func TestValidate(t *testing.T) {
	ok := Config{Nodes: 30, Message: "abc", Impl: ImplChan}
	cases := []struct {
		name string
		mod  func(*Config)
		want string
	}{
		{"zero nodes", func(c *Config) { c.Nodes = 0 }, "--nodes must be between 1 and"},
		{"negative nodes", func(c *Config) { c.Nodes = -3 }, "--nodes must be between 1 and"},
		{"huge nodes", func(c *Config) { c.Nodes = MaxNodes + 1 }, "--nodes must be between 1 and"},
		{"racy too big", func(c *Config) { c.Nodes, c.Impl = MaxRacyNodes+1, ImplRacy }, "for --impl racy"},
		{"negative delay", func(c *Config) { c.Delay = -time.Second }, "--delay must be 0 or more"},
		{"unknown impl", func(c *Config) { c.Impl = "mutex" }, "--impl: unknown implementation"},
		{"empty message", func(c *Config) { c.Message = "" }, "--message must not be empty"},
		{"no letters", func(c *Config) { c.Message = "1234 !?" }, "must contain at least one letter"},
	}
	for _, tc := range cases {
		c := ok
		tc.mod(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
		if _, runErr := Run(context.Background(), c, nil); runErr == nil {
			t.Errorf("%s: Run accepted the bad configuration", tc.name)
		}
	}
	if err := ok.Validate(); err != nil {
		t.Errorf("valid config rejected: %v", err)
	}
}

// TestRacyWithoutDetector checks that the racy variant, for all its races,
// follows the rules when run on its own (it is only ever racy, not wrong, on
// this machine's memory model in practice). Under -race it is skipped: there
// it must run in a subprocess (racy_test.go).
func TestRacyWithoutDetector(t *testing.T) {
	if racebuild.Enabled {
		t.Skip("the racy ring runs only in a -race subprocess when the detector is on")
	}
	checkRun(t, Config{Nodes: 5, Message: "hello world", Impl: ImplRacy})
}
