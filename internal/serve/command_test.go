package serve

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/urfave/cli/v2"

	"ringlab/internal/clitest"
	"ringlab/internal/cliutil"
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
		{[]string{"--addr", "8080"}, "want HOST:PORT"},
		{[]string{"--addr", ln.Addr().String()}, "pick another port"},
		{[]string{"stray"}, "unexpected argument"},
		{[]string{"--nope"}, "flag provided but not defined"},
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
