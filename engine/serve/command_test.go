package serve

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/internal/clitest"
)

// syncBuffer is a stderr the test reads while the command writes it.
type syncBuffer struct {
	mu   sync.Mutex
	b    bytes.Buffer
	seen chan struct{}
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Write(p)
	if strings.Contains(s.b.String(), "serving") {
		select {
		case s.seen <- struct{}{}:
		default:
		}
	}
	return len(p), nil
}

func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func runServe(ctx context.Context, stderr *syncBuffer, args ...string) error {
	return clitest.Run(ctx, []*cli.Command{Command()}, &bytes.Buffer{}, stderr, append([]string{"ringlab", "serve"}, args...))
}

// runServeStdin is runServe with stdin as the app's standard input.
func runServeStdin(ctx context.Context, stdin io.Reader, stderr *syncBuffer, args ...string) error {
	cmds := []*cli.Command{Command()}
	cliutil.Prepare(cmds)
	app := &cli.App{Name: "ringlab", Commands: cmds, Reader: stdin, Writer: &bytes.Buffer{}, ErrWriter: stderr,
		ExitErrHandler: func(*cli.Context, error) {}}
	return app.RunContext(ctx, append([]string{"ringlab", "serve"}, args...))
}

func TestCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "run.txt")
	if err := os.WriteFile(text, []byte("t=0 N5 send\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", filepath.Join(dir, "missing.ndjson")}, "no such file"},
		{[]string{"--from", text}, "not an NDJSON run log"},
		{[]string{"--addr", "8080"}, "--addr \"8080\": want HOST:PORT"},
		{[]string{"--addr", ln.Addr().String()}, "--addr " + ln.Addr().String() + ": "},
		{[]string{"--addr", ln.Addr().String()}, "pick another port"},
		{[]string{"--from", "-", "--from", "-"}, "standard input can be read once"},
		{[]string{"stray"}, "unexpected argument"},
		{[]string{"--nope"}, "flag provided but not defined"},
		{[]string{"--lang", "fr"}, `--lang: unknown language "fr" (want en or pt (pt-BR))`},
	} {
		err := runServe(t.Context(), &syncBuffer{seen: make(chan struct{}, 1)}, c.args...)
		if cliutil.Code(err) != cliutil.ExitUsage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("serve %v: %v (exit %d), want exit 2 and %q", c.args, err, cliutil.Code(err), c.want)
		}
	}
}

func TestCommandServesUntilCancelled(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ring.ndjson")
	if err := os.WriteFile(p, []byte(ringLog), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stderr := &syncBuffer{seen: make(chan struct{}, 1)}
	done := make(chan error, 1)
	go func() { done <- runServe(ctx, stderr, "--addr", "127.0.0.1:0", "--from", p) }()
	select {
	case <-stderr.seen:
	case err := <-done:
		t.Fatalf("serve ended: %v", err)
	}
	if out := stderr.String(); !strings.Contains(out, "serving 1 run(s) at http://127.0.0.1:") {
		t.Errorf("stderr: %q", out)
	}
	cancel()
	if err := <-done; cliutil.Code(err) != cliutil.ExitInterrupted {
		t.Errorf("after Ctrl-C: %v (exit %d), want the interrupt's exit 130 after a clean shutdown", err, cliutil.Code(err))
	}
}

// TestCommandServesStdin: --from - reads the log from standard input once,
// at start, and serves it.
func TestCommandServesStdin(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stderr := &syncBuffer{seen: make(chan struct{}, 1)}
	done := make(chan error, 1)
	go func() {
		done <- runServeStdin(ctx, strings.NewReader(ringLog), stderr, "--addr", "127.0.0.1:0", "--from", "-")
	}()
	select {
	case <-stderr.seen:
	case err := <-done:
		t.Fatalf("serve --from - ended: %v", err)
	}
	out := stderr.String()
	_, rest, ok := strings.Cut(out, "serving 1 run(s) at ")
	base, _, _ := strings.Cut(rest, "/ ")
	if !ok || !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("stderr: %q", out)
	}
	resp, err := http.Get(base + "/log/1")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || string(body) != ringLog {
		t.Errorf("GET /log/1: %d %v %q", resp.StatusCode, err, body)
	}
	cancel()
	if err := <-done; cliutil.Code(err) != cliutil.ExitInterrupted {
		t.Errorf("after Ctrl-C: %v (exit %d), want the interrupt's exit 130", err, cliutil.Code(err))
	}
}

// TestCommandStdinNotALog: standard input that is not a run log is refused
// at start, naming --from -.
func TestCommandStdinNotALog(t *testing.T) {
	err := runServeStdin(t.Context(), strings.NewReader("hello\n"), &syncBuffer{seen: make(chan struct{}, 1)}, "--addr", "127.0.0.1:0", "--from", "-")
	if cliutil.Code(err) != cliutil.ExitUsage || !strings.Contains(err.Error(), "--from -: line 1 is not a JSON object") {
		t.Errorf("serve --from - of text: %v (exit %d)", err, cliutil.Code(err))
	}
}
