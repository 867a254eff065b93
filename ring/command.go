package ring

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/engine/trace"
)

// Command returns the `ring` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:  "ring",
		Usage: "pass a message around a ring of goroutines, upper-casing one letter per hop",
		UsageText: "ringlab ring [--nodes 30] [--length 80] [--delay 1s] [--seed N | --message TEXT] [--impl chan|cond|racy] [--format text|json|mermaid|svg|shiviz|chrome-trace]\n\n" +
			"Example (instant, reproducible):\n   ringlab ring --delay 0 --seed 7",
		Description: "The course's ring exercise: each goroutine prints the message it receives, upper-cases the first\n" +
			"lower-case letter, waits --delay and passes it to the next; when every letter is upper\n" +
			"case the message makes one last lap so every goroutine stops, and the result is printed.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "nodes", Value: 30, Usage: fmt.Sprintf("goroutines in the ring (1..%d; racy: 1..%d)", MaxNodes, MaxRacyNodes)},
			&cli.IntFlag{Name: "length", Value: 80, Usage: fmt.Sprintf("length of the random lower-case message (1..%d)", MaxLength)},
			&cli.DurationFlag{Name: "delay", Value: 1e9, Usage: "wait after each hop that changes a letter (0 allowed)"},
			&cli.Int64Flag{Name: "seed", DefaultText: "drawn, and printed on stderr", Usage: "seed of the random message"},
			&cli.StringFlag{Name: "message", Usage: "circulate this text instead of a random one"},
			&cli.StringFlag{Name: "impl", Value: ImplChan, Usage: "chan (a channel per goroutine), cond (mutex + sync.Cond), racy (unsynchronized; for the race detector)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, json (NDJSON: one hop object per line, then a done object), or a picture of the run: mermaid, svg, shiviz or chrome-trace"},
			&cli.StringFlag{Name: "out", Usage: "write the output to `FILE` instead of standard output"},
		},
		Action: action,
	}
}

func action(c *cli.Context) error {
	if err := cliutil.NoArgs(c); err != nil {
		return err
	}
	format := c.String("format")
	if !slices.Contains(formats, format) {
		return cliutil.Usagef("--format: unknown format %q (want %s)", format, strings.Join(formats, ", "))
	}
	cfg := Config{Nodes: c.Int("nodes"), Delay: c.Duration("delay"), Impl: c.String("impl")}
	drawn := ""
	var seed int64

	switch {
	case c.IsSet("message") && c.IsSet("length"):
		return cliutil.Usagef("--message and --length exclude each other: the message sets the length")
	case c.IsSet("message") && c.IsSet("seed"):
		return cliutil.Usagef("--message and --seed exclude each other: the seed only draws the random message")
	case c.IsSet("message"):
		cfg.Message = c.String("message")
	default:
		length := c.Int("length")
		if length < 1 || length > MaxLength {
			return cliutil.Usagef("--length must be between 1 and %d, got %d", MaxLength, length)
		}
		seed = c.Int64("seed")
		if !c.IsSet("seed") {
			seed = rand.Int64N(1 << 31)
			drawn = fmt.Sprintf("seed %d (repeat this run with --seed %d)\n", seed, seed)
		}
		cfg.Message = RandomMessage(seed, length)
	}
	if err := cfg.Validate(); err != nil {
		return cliutil.Usagef("%v", err)
	}
	fmt.Fprint(c.App.ErrWriter, drawn)
	w, done, err := cliutil.Output(c)
	if err != nil {
		return err
	}
	defer done()
	if format == "text" || format == "json" {
		return runAndPrint(c.Context, cfg, format, w)
	}
	// A picture: the ring's own NDJSON, read back as engine events.
	var log bytes.Buffer
	runErr := runAndPrint(c.Context, cfg, "json", &log)
	l, err := trace.Load(&log, LogDialect())
	if err != nil {
		return errors.Join(runErr, err)
	}
	l.Header.Replay, l.Header.Seed = replay(c, cfg, seed), uint64(seed)
	if l.Summary != nil {
		l.Summary.Replay = l.Header.Replay
	}
	r, _ := trace.NewRenderer(format, w)
	if err := l.Render(r); err != nil {
		return errors.Join(runErr, fmt.Errorf("writing output: %w", err))
	}
	return runErr
}

// formats are the ring's output formats: its own text and NDJSON, and the
// engine's pictures of its log.
var formats = []string{"text", "json", "mermaid", "svg", "shiviz", "chrome-trace"}

// RandomMessage returns length random lower-case ASCII letters drawn from seed.
func RandomMessage(seed int64, length int) string {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x72696e676c6162)) // "ringlab"
	var b strings.Builder
	b.Grow(length)
	for range length {
		b.WriteByte(byte('a' + rng.IntN(26)))
	}
	return b.String()
}

// hopLine and doneLine are the NDJSON records; their field names are a
// contract documented in the README.
type hopLine struct {
	Kind string `json:"kind"`
	Hop
}

type doneLine struct {
	Kind    string `json:"kind"`
	Hops    int    `json:"hops"`
	Message string `json:"message"`
}

type interruptedLine struct {
	Kind    string `json:"kind"`
	Hops    int    `json:"hops"`
	Node    int    `json:"node"`
	Message string `json:"message"`
}

func runAndPrint(ctx context.Context, cfg Config, format string, stdout io.Writer) error {
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	width := len(fmt.Sprint(cfg.Nodes))

	var werr error // first write error; checked after the run
	onHop := func(h Hop) {
		if format == "json" {
			werr = errors.Join(werr, enc.Encode(hopLine{Kind: "hop", Hop: h}))
		} else {
			_, err := fmt.Fprintf(w, "hop %4d  goroutine %*d  received %s\n", h.Hop, width, h.Node, h.Received)
			werr = errors.Join(werr, err)
		}
		if cfg.Delay > 0 { // a slow ring shows each hop as it happens
			werr = errors.Join(werr, w.Flush())
		}
	}
	res, err := Run(ctx, cfg, onHop)
	if err != nil {
		if format == "json" {
			_ = enc.Encode(interruptedLine{Kind: "interrupted", Hops: res.Hops, Node: res.LastNode, Message: res.Message})
		} else {
			fmt.Fprintf(w, "interrupted after %d hops; goroutine %d held the message last: %s\n", res.Hops, res.LastNode, res.Message)
		}
		return err
	}
	if format == "json" {
		werr = errors.Join(werr, enc.Encode(doneLine{Kind: "done", Hops: res.Hops, Message: res.Message}))
	} else {
		_, err := fmt.Fprintf(w, "final message after %d hops (%d changed a letter): %s\n", res.Hops, res.Changes, res.Message)
		werr = errors.Join(werr, err)
	}
	werr = errors.Join(werr, w.Flush())
	if werr != nil {
		return fmt.Errorf("writing output: %w", werr)
	}
	return nil
}

// replay is the command line that repeats a ring run (--delay 0: the
// delay does not change what happens).
func replay(c *cli.Context, cfg Config, seed int64) string {
	parts := []string{"ringlab ring --delay 0", "--nodes", fmt.Sprint(cfg.Nodes)}
	if c.IsSet("message") {
		parts = append(parts, "--message", "'"+strings.ReplaceAll(cfg.Message, "'", `'\''`)+"'")
	} else {
		parts = append(parts, "--length", fmt.Sprint(len(cfg.Message)), "--seed", fmt.Sprint(seed))
	}
	if c.IsSet("impl") {
		parts = append(parts, "--impl", c.String("impl"))
	}
	return strings.Join(parts, " ")
}
