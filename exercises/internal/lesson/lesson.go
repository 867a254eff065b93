// Package lesson holds the few pieces the `ringlab exercises` lessons share:
// the command frame with its --explain flag, range-checked flag readers that
// turn bad input into a one-line usage error (exit 2) before any goroutine
// starts, and a writer that many goroutines may print to at once.
package lesson

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/internal/racebuild"
)

// Command completes a lesson's command: it adds the --explain flag every
// lesson has, and an action that rejects positional arguments, prints
// explain (trimmed) for --explain, and otherwise runs act.
func Command(cmd *cli.Command, explain string, act cli.ActionFunc) *cli.Command {
	cmd.Flags = append(cmd.Flags, &cli.BoolFlag{Name: "explain", Usage: "print what to observe and why, then exit without running"})
	cmd.Action = func(c *cli.Context) error {
		if err := cliutil.NoArgs(c); err != nil {
			return err
		}
		if c.Bool("explain") {
			_, err := fmt.Fprintln(c.App.Writer, strings.TrimSpace(explain))
			return err
		}
		return act(c)
	}
	return cmd
}

// Int reads the int flag name and checks that lo <= value <= hi.
func Int(c *cli.Context, name string, lo, hi int) (int, error) {
	v := c.Int(name)
	if v < lo || v > hi {
		return 0, cliutil.Usagef("--%s must be between %d and %d, got %d", name, lo, hi, v)
	}
	return v, nil
}

// Goroutines is Int for a flag that sets how many goroutines start; it also
// refuses counts a -race build cannot afford (racebuild).
func Goroutines(c *cli.Context, name string, lo, hi int) (int, error) {
	v, err := Int(c, name, lo, hi)
	if err != nil {
		return 0, err
	}
	if err := racebuild.Check("--"+name, v); err != nil {
		return 0, cliutil.Usagef("%v", err)
	}
	return v, nil
}

// Duration reads the duration flag name and checks that lo <= value <= hi.
func Duration(c *cli.Context, name string, lo, hi time.Duration) (time.Duration, error) {
	v := c.Duration(name)
	if v < lo || v > hi {
		return 0, cliutil.Usagef("--%s must be between %v and %v, got %v", name, lo, hi, v)
	}
	return v, nil
}

// Reader reads checked flags one after another and keeps the first error,
// so a lesson's flag checks read as one line each; once a read has failed,
// later reads return zero and do nothing.
type Reader struct {
	c   *cli.Context
	Err error
}

// NewReader returns a Reader over c's flags.
func NewReader(c *cli.Context) *Reader { return &Reader{c: c} }

// Int is Int with the error kept in r.
func (r *Reader) Int(name string, lo, hi int) int { return read(r, name, lo, hi, Int) }

// Goroutines is Goroutines with the error kept in r.
func (r *Reader) Goroutines(name string, lo, hi int) int { return read(r, name, lo, hi, Goroutines) }

// Duration is Duration with the error kept in r.
func (r *Reader) Duration(name string, lo, hi time.Duration) time.Duration {
	return read(r, name, lo, hi, Duration)
}

func read[T any](r *Reader, name string, lo, hi T, get func(*cli.Context, string, T, T) (T, error)) T {
	var zero T
	if r.Err != nil {
		return zero
	}
	v, err := get(r.c, name, lo, hi)
	r.Err = err
	return v
}

// OneOf reads the string flag name and checks it is one of allowed.
func OneOf(c *cli.Context, name string, allowed ...string) (string, error) {
	v := c.String(name)
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return "", cliutil.Usagef("--%s: unknown value %q (want %s)", name, v, strings.Join(allowed, ", "))
}

// SyncWriter lets many goroutines print to one writer: each Write is done
// whole under a mutex, so lines never interleave mid-line (their ORDER is
// still whatever the scheduler makes it). The zero value is not usable; use
// NewSyncWriter. A SyncWriter must not be copied after first use.
type SyncWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error // first write error
}

// NewSyncWriter wraps w.
func NewSyncWriter(w io.Writer) *SyncWriter { return &SyncWriter{w: w} }

// Printf formats and writes one line's worth of text atomically.
func (s *SyncWriter) Printf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		_, s.err = fmt.Fprintf(s.w, format, args...)
	}
}

// Err returns the first write error, if any.
func (s *SyncWriter) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}
