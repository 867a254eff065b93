package main

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
)

// announced is a stderr that hands over the server's URL when it is printed.
type announced struct {
	mu  sync.Mutex
	buf bytes.Buffer
	url chan string
}

func (a *announced) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.buf.Write(p)
	if _, rest, ok := strings.Cut(a.buf.String(), "serving 1 run(s) at "); ok {
		if u, _, ok := strings.Cut(rest, " "); ok {
			select {
			case a.url <- u:
			default:
			}
		}
	}
	return len(p), nil
}

func TestServeFlag(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stderr := &announced{url: make(chan string, 1)}
	var stdout bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"ringlab", "election", "ring", "--seed", "2", "--format", "none", "--serve", "--serve-addr", "127.0.0.1:0"}, &stdout, stderr)
	}()
	var url string
	select {
	case url = <-stderr.url:
	case code := <-done:
		t.Fatalf("the command ended before serving: exit %d", code)
	}
	if !strings.HasSuffix(url, "/run/1") {
		t.Fatalf("announced %q, want the run's page", url)
	}
	resp, err := http.Get(strings.Replace(url, "/run/", "/log/", 1))
	if err != nil {
		t.Fatal(err)
	}
	log, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET log: %d %v", resp.StatusCode, err)
	}
	// The log is the whole run (--format none still logs it for the page),
	// and its replay command does not serve again.
	if !bytes.HasPrefix(log, []byte(`{"v":1,"kind":"header"`)) || !bytes.Contains(log, []byte(`"names":["N5","N3","N7","N1","N4"]`)) {
		t.Errorf("the served log does not start with the header naming the nodes:\n%.300s", log)
	}
	if !bytes.Contains(log, []byte(`"kind":"send"`)) || !bytes.Contains(log, []byte(`"replay":"ringlab election ring --format none --seed 2"`)) {
		t.Errorf("served log:\n%s", log)
	}
	cancel() // Ctrl-C: the server shuts down, the command returns the run's result
	if code := <-done; code != 0 {
		t.Errorf("after Ctrl-C: exit %d", code)
	}
}

// TestServeFlagBadAddr: a --serve-addr that does not parse, or whose port
// is taken (by a listener the test holds), is exit 2 naming --serve-addr,
// before the run: nothing on stdout, no events file.
func TestServeFlagBadAddr(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, c := range []struct{ addr, want string }{
		{"nowhere", `--serve-addr "nowhere": want HOST:PORT`},
		{ln.Addr().String(), "--serve-addr " + ln.Addr().String() + ": "},
	} {
		for _, cmd := range [][]string{{"election", "ring", "--seed", "2"}, {"mutex", "scenario", "central-slow"}} {
			badServeAddr(t, cmd, c.addr, c.want)
		}
	}
}

// badServeAddr runs cmd with --serve --serve-addr addr and wants it refused
// with exit 2 and want on stderr, having printed and written nothing.
func badServeAddr(t *testing.T, cmd []string, addr, want string) {
	t.Helper()
	events := filepath.Join(t.TempDir(), "run.ndjson")
	var stdout, stderr bytes.Buffer
	args := append(append([]string{"ringlab"}, cmd...), "--events", events, "--serve", "--serve-addr", addr)
	code := run(t.Context(), args, &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), want) || strings.Contains(stderr.String(), "--addr") {
		t.Errorf("--serve-addr %s: exit %d, stderr %q; want exit 2 and %q", addr, code, stderr.String(), want)
	}
	if stdout.Len() != 0 {
		t.Errorf("--serve-addr %s: the run ran: stdout %q", addr, stdout.String())
	}
	if _, err := os.Stat(events); !os.IsNotExist(err) {
		t.Errorf("--serve-addr %s: the events file exists (%v)", addr, err)
	}
}
