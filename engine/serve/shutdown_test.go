package serve

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// pipeListener hands out the server's ends of net.Pipe connections: an
// in-memory network that lives in a synctest bubble, where time is the
// bubble's and no wall clock judges anything.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// dial connects a client, accepted by the server as soon as it asks.
func (l *pipeListener) dial() net.Conn {
	client, server := net.Pipe()
	l.conns <- server
	return client
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error { l.once.Do(func() { close(l.done) }); return nil }

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// TestShutdownClosesIdleConnections: a browser keeps connections open
// between requests (keep-alive), and opens some it never sends on
// (preconnect). On Ctrl-C the server closes both at once instead of
// waiting for them: http.Server.Shutdown counts a connection that never
// sent a request as idle only after 5 s, so `serve` and `check --serve`
// took 5 s to exit. Judged in the bubble's time, which load cannot change.
func TestShutdownClosesIdleConnections(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		ln := newPipeListener()
		h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
		done := make(chan error, 1)
		go func() { done <- serveHandler(ctx, ln, h, func(string) {}) }()

		keepAlive := ln.dial() // one request answered, the connection kept
		if _, err := io.WriteString(keepAlive, "GET / HTTP/1.1\r\nHost: pipe\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(keepAlive)
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := io.ReadAll(resp.Body); string(b) != "ok" {
			t.Fatalf("answer %q", b)
		}
		silent := ln.dial() // a preconnect: nothing sent on it
		synctest.Wait()

		start := time.Now()
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("serve after the cancel: %v", err)
		}
		if took := time.Since(start); took >= time.Second {
			t.Errorf("the server took %v to shut down with idle connections open, want under 1s", took)
		}
		for name, c := range map[string]io.Reader{"the keep-alive connection": r, "the silent connection": silent} {
			if _, err := c.Read(make([]byte, 1)); !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
				t.Errorf("%s is still open after the shutdown: read gave %v", name, err)
			}
		}
		keepAlive.Close()
		silent.Close()
	})
}
