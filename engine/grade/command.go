package grade

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
)

// Command is `ringlab grade`: it reads `go test -json` output (stdin, or
// --from) and a points file (--points) and writes Gradescope's
// results.json (stdout, or --out, written whole or not at all). Bad input
// is a one-line error naming the flag, exit 2; a graded test that failed
// is not an error of the command.
func Command() *ucli.Command {
	return &ucli.Command{
		Name:  "grade",
		Usage: "turn go test -json output and a points file into Gradescope's results.json",
		UsageText: "go test -json ./... | ringlab grade --points FILE [--out results.json]\n\n" +
			"The points file has one graded test a line: NAME POINTS [VISIBILITY], VISIBILITY one of visible (the default),\n" +
			"hidden, after_due_date or after_published, as Gradescope reads them; a # at the start of a line or after a space\n" +
			"starts a comment. --out must be a regular file or none: it is replaced whole.\n\n" +
			"Example:\n   go test -json ./assignment/ricart | ringlab grade --points assignment/points --out results.json",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "points", Usage: "the points `FILE`: one graded test a line, NAME POINTS [VISIBILITY]"},
			&ucli.StringFlag{Name: "from", Usage: "read the go test -json output from `FILE` (default: stdin)"},
			&ucli.StringFlag{Name: "out", Usage: "write results.json to `FILE` (default: stdout)"},
		},
		Action: func(c *ucli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			if c.String("points") == "" {
				return cliutil.FlagUsagef("points", "--points is required: the file of graded tests, one a line: NAME POINTS [VISIBILITY]")
			}
			pf, err := os.Open(c.String("points"))
			if err != nil {
				return cliutil.FlagUsagef("points", "--points: %v", err)
			}
			points, err := ParsePoints(pf)
			pf.Close()
			if err != nil {
				return cliutil.FlagUsagef("points", "--points %s: %v", c.String("points"), err)
			}
			if err := c.Context.Err(); err != nil {
				return err
			}
			in, what := c.App.Reader, "stdin"
			if from := c.String("from"); from != "" {
				f, err := os.Open(from)
				if err != nil {
					return cliutil.FlagUsagef("from", "--from: %v", err)
				}
				defer f.Close()
				in, what = f, "--from "+from
			}
			if in == nil {
				in = os.Stdin
			}
			s, err := readStream(c.Context, in, points)
			if err != nil {
				if c.Context.Err() != nil {
					return err
				}
				return cliutil.Usagef("%s: %v", what, err)
			}
			var b bytes.Buffer
			if err := Grade(s, points).Write(&b); err != nil {
				return err
			}
			out := c.String("out")
			if out == "" {
				_, err := c.App.Writer.Write(b.Bytes())
				return err
			}
			if cliutil.SameFile(out, c.String("from")) || cliutil.SameFile(out, c.String("points")) {
				return cliutil.FlagUsagef("out", "--out %s is an input of this command: give another file", out)
			}
			if err := regularOrNone(out); err != nil {
				return err
			}
			return writeWhole(out, b.Bytes())
		},
	}
}

// readStream reads the test stream, or returns the context's error as soon
// as it is cancelled: a stream piped from a go test that hangs must not
// hold up Ctrl-C. The reading goroutine is left to finish its read; the
// command is over by then.
func readStream(ctx context.Context, r io.Reader, points []Points) (*Stream, error) {
	type result struct {
		s   *Stream
		err error
	}
	done := make(chan result, 1)
	go func() {
		s, err := ReadGraded(ctxReader{ctx, r}, points)
		done <- result{s, err}
	}()
	select {
	case res := <-done:
		return res.s, res.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// ctxReader stops reading once its context is cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// regularOrNone refuses an --out that exists and is not a regular file:
// the results are renamed over it, and grade often runs as root, where a
// device, a FIFO or a symlink (--out /dev/null) would become a plain file.
func regularOrNone(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return cliutil.FlagUsagef("out", "--out: %v", err)
	case fi.Mode().IsRegular():
		return nil
	case fi.IsDir():
		return cliutil.FlagUsagef("out", "--out %s is a directory: give the path of the results file", path)
	case fi.Mode()&fs.ModeSymlink != 0:
		return cliutil.FlagUsagef("out", "--out %s is a symbolic link: give the path of a regular file, which is replaced", path)
	}
	kind := "something else"
	switch m := fi.Mode(); {
	case m&fs.ModeDevice != 0:
		kind = "a device"
	case m&fs.ModeNamedPipe != 0:
		kind = "a FIFO"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return cliutil.FlagUsagef("out", "--out %s is not a regular file but %s: give the path of a regular file, which is replaced", path, kind)
}

// writeWhole writes b to path through a temporary file in its directory,
// renamed over path once complete: a reader never sees half a results file.
func writeWhole(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".results-*.json")
	if err != nil {
		return cliutil.FlagUsagef("out", "--out: %v", err)
	}
	err = f.Chmod(0o644) // as os.Create would make it: the grader may read it as another user
	if err == nil {
		_, err = io.Copy(f, bytes.NewReader(b))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// once more just before the rename: something may have been made
		// there since the command started
		if err = regularOrNone(path); err == nil {
			err = os.Rename(f.Name(), path)
		}
	}
	if err != nil {
		os.Remove(f.Name())
		if cliutil.Code(err) == cliutil.ExitUsage {
			return err
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
