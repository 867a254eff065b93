// Package ring is the capitalizing ring, the course's multithreaded-ring
// exercise ("Exercício - Anel Multithread"): n goroutines pass one message around a ring; each
// receiver prints it, upper-cases its first lower-case letter, waits, and
// passes it on, until every letter is upper case.
//
// Three implementations share one token and one stop rule:
//
//   - chan (chan.go): one inbox channel per goroutine, the idiomatic version;
//   - cond (cond.go): a shared slot guarded by a sync.Mutex, with one
//     sync.Cond per goroutine so a hand-over wakes only the next one;
//   - racy (racy.go): the unsynchronized version students write first. It is a
//     data race on purpose, quarantined in its own file.
//
// Stop rule. The goroutine that upper-cases the last lower-case letter (or the
// first to receive a message with none) is the finisher. The finished message
// makes one last lap so that every goroutine sees it and exits; the
// finisher's predecessor does not send it on (its successor has already
// exited) but hands it to Run. So a run of a message with c lower-case letters
// on n goroutines takes max(c,1)+n-1 hops, every goroutine exits, and no send
// ever blocks on an exited neighbour. Only hops that change a letter wait
// --delay: the last lap carries the finished message home and does not.
//
// Letters are Unicode: a character is "lower case" when unicode.IsLower says
// so and it has a distinct upper-case form (so 'ß', which has none in Go's
// simple case mapping, counts as upper case, like digits and punctuation).
package ring

import (
	"context"
	"fmt"
	"time"
	"unicode"
	"unicode/utf8"

	"ringlab/internal/racebuild"
)

// Implementation names accepted by Config.Impl.
const (
	ImplChan = "chan"
	ImplCond = "cond"
	ImplRacy = "racy"
)

// Impls lists the implementations in the order the help text shows them.
var Impls = []string{ImplChan, ImplCond, ImplRacy}

// Limits on the configuration, chosen for a 2-core, 24 GiB machine.
const (
	MaxNodes     = 1_000_000 // ~2.5 KB each: about 2.5 GB of goroutine stacks
	MaxRacyNodes = 1_000     // the racy version polls: every goroutine spins
	MaxLength    = 1_000_000 // characters in the message
)

// Config describes one run.
type Config struct {
	Nodes   int           // goroutines in the ring, >= 1
	Delay   time.Duration // wait after each hop that changes a letter, >= 0
	Message string        // the message to circulate; must contain a letter
	Impl    string        // ImplChan, ImplCond or ImplRacy
}

// Validate checks the configuration; its errors name the offending flag.
func (c Config) Validate() error {
	maxNodes := MaxNodes
	if c.Impl == ImplRacy {
		maxNodes = MaxRacyNodes
	}
	switch {
	case c.Impl != ImplChan && c.Impl != ImplCond && c.Impl != ImplRacy:
		return fmt.Errorf("--impl: unknown implementation %q (want one of chan, cond, racy)", c.Impl)
	case c.Nodes < 1 || c.Nodes > maxNodes:
		return fmt.Errorf("--nodes must be between 1 and %d for --impl %s, got %d", maxNodes, c.Impl, c.Nodes)
	case c.Delay < 0:
		return fmt.Errorf("--delay must be 0 or more, got %v", c.Delay)
	case c.Message == "":
		return fmt.Errorf("--message must not be empty")
	case utf8.RuneCountInString(c.Message) > MaxLength:
		return fmt.Errorf("--message is longer than %d characters", MaxLength)
	case !hasLetter(c.Message):
		return fmt.Errorf("--message must contain at least one letter, got %q", c.Message)
	}
	return racebuild.Check("--nodes", c.Nodes)
}

// Hop is what one goroutine saw and did when the message reached it.
// The JSON names are a contract (README, "ring --format json").
type Hop struct {
	Hop      int    `json:"hop"`      // 1-based count of receipts so far
	Node     int    `json:"node"`     // 1-based goroutine index
	Received string `json:"received"` // the message as it arrived
	Sent     string `json:"sent"`     // the message as passed on
	Changed  int    `json:"changed"`  // 0-based rune index upper-cased, -1 if none
}

// Result is the outcome of a run. After an interruption it describes how far
// the message got.
type Result struct {
	Message  string // the message as it ended
	Hops     int    // receipts, the last lap included
	Changes  int    // hops that upper-cased a letter
	LastNode int    // the 1-based goroutine that received the message last (0 if none)
}

// Run circulates cfg.Message around a ring of cfg.Nodes goroutines and
// returns the final message. onHop, if not nil, is called once per hop, by
// the goroutine holding the message; calls never overlap (except in the racy
// implementation, whose whole point is that nothing orders them). If ctx is
// cancelled every goroutine stops, Run returns the partial Result and
// ctx.Err(). Run never returns before all its goroutines have exited.
func Run(ctx context.Context, cfg Config, onHop func(Hop)) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	var t *token
	var err error
	switch cfg.Impl {
	case ImplChan:
		t, err = runChan(ctx, cfg, onHop)
	case ImplCond:
		t, err = runCond(ctx, cfg, onHop)
	case ImplRacy:
		t, err = runRacy(ctx, cfg, onHop)
	}
	// Every goroutine has exited: the token is ours to read.
	res := Result{Message: string(t.text), Hops: t.hop, Changes: t.changes}
	if t.hop > 0 {
		res.LastNode = (t.hop-1)%cfg.Nodes + 1
	}
	return res, err
}

// isLower reports whether r is a lower-case letter that upper-casing changes.
func isLower(r rune) bool { return unicode.IsLower(r) && unicode.ToUpper(r) != r }

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// token is the message in flight. Whoever holds it owns it: it is handed over
// through a channel or under a mutex, never shared.
type token struct {
	text     []rune
	next     int // index of the first lower-case rune, len(text) if none
	hop      int
	changes  int
	finisher int // 0-based goroutine that saw the message finished, -1 before
}

func newToken(msg string) *token {
	t := &token{text: []rune(msg), finisher: -1}
	t.next = t.scan(0)
	return t
}

func (t *token) scan(from int) int {
	for i := from; i < len(t.text); i++ {
		if isLower(t.text[i]) {
			return i
		}
	}
	return len(t.text)
}

// visit is one goroutine's turn with the token: count the hop, upper-case
// the first lower-case letter, and decide what happens next. It reports the
// index changed (-1 if none), whether the message is finished (this
// goroutine then exits after the hand-over), and whether this goroutine is
// the last of the final lap (it must not send: its successor has exited).
func (t *token) visit(self, n int, onHop func(Hop)) (changed int, finished, last bool) {
	t.hop++
	var received string
	if onHop != nil {
		received = string(t.text)
	}
	changed = -1
	if t.next < len(t.text) {
		changed = t.next
		t.text[changed] = unicode.ToUpper(t.text[changed])
		t.next = t.scan(changed + 1)
		t.changes++
	}
	finished = t.next == len(t.text)
	if finished && t.finisher < 0 {
		t.finisher = self
	}
	if onHop != nil {
		onHop(Hop{Hop: t.hop, Node: self + 1, Received: received, Sent: string(t.text), Changed: changed})
	}
	last = finished && (self+1)%n == t.finisher
	return changed, finished, last
}

// pause waits d, or until ctx is done; it reports whether the wait completed.
func pause(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true // cancellation is noticed at the next receive
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
