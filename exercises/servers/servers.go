// Package servers is the `servers` lesson of the concurrency chapter
// (the course chapter on concurrency, "server architectures"): the same tiny file server built four
// ways and measured under the same load, for real, on loopback TCP.
//
//   - single: one goroutine accepts a connection and serves it to the end
//     before accepting the next;
//   - per-request: the acceptor starts a goroutine per connection (thread
//     per request), with no bound on how many run at once;
//   - pool: a fixed pool of workers fed by a bounded queue; when the queue
//     is full the acceptor waits, and new connections wait in the kernel;
//   - seda: staged event-driven architecture; three stages (parse, read,
//     reply), each with its own bounded queue and a pool sized for its work.
//
// The protocol is one request per connection, in lock-step: the client sends
// "GET <id>\n", the server "reads the file" (a sleep of ReadTime: the slow
// I/O that the architectures overlap, or not) and answers
// "OK <id> <checksum>\n", then closes. The load generator (load.go) checks
// every answer. The tests run every architecture against one suite and check
// that every request is answered correctly and every goroutine is joined.
package servers

import (
	"bufio"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Architecture names accepted by Config.Arch, in the order the table shows them.
const (
	ArchSingle     = "single"
	ArchPerRequest = "per-request"
	ArchPool       = "pool"
	ArchSEDA       = "seda"
)

// Archs lists every architecture.
func Archs() []string { return []string{ArchSingle, ArchPerRequest, ArchPool, ArchSEDA} }

// sedaEdge is the pool size of the light SEDA stages (parse and reply); the
// read stage, which waits on slow I/O, gets Config.Workers.
const sedaEdge = 2

// Config describes one server.
type Config struct {
	Arch     string
	Workers  int           // pool: workers; seda: workers of the read stage
	Queue    int           // pool and seda: capacity of each queue
	ReadTime time.Duration // how long a simulated file read takes
	Timeout  time.Duration // deadline for each connection
}

// Handlers describes the goroutines that serve requests in cfg's architecture.
func (cfg Config) Handlers() string {
	switch cfg.Arch {
	case ArchSingle:
		return "1"
	case ArchPerRequest:
		return "1 per request"
	case ArchPool:
		return fmt.Sprintf("%d, queue %d", cfg.Workers, cfg.Queue)
	default:
		return fmt.Sprintf("%d+%d+%d, queues %d", sedaEdge, cfg.Workers, sedaEdge, cfg.Queue)
	}
}

// Stats are counters a server updates while it runs; read them after Serve
// returns (or atomically while it runs).
type Stats struct {
	reading   atomic.Int64 // file reads in progress
	PeakReads atomic.Int64 // most file reads in progress at once
	QueueFull atomic.Int64 // times a stage (or the acceptor) found its queue full and waited
}

// Serve accepts connections on ln and serves them in cfg's architecture until
// ln is closed; then it waits for every connection in progress and every
// worker, and returns. It returns nil after a normal close.
func Serve(ln net.Listener, cfg Config, st *Stats) error {
	h := handler{cfg: cfg, st: st}
	switch cfg.Arch {
	case ArchSingle:
		return serveSingle(ln, h)
	case ArchPerRequest:
		return servePerRequest(ln, h)
	case ArchPool:
		return servePool(ln, h)
	case ArchSEDA:
		return serveSEDA(ln, h)
	}
	return fmt.Errorf("unknown architecture %q (want one of %s)", cfg.Arch, strings.Join(Archs(), ", "))
}

// Body is the content of file id: a checksum the client can verify.
func Body(id int) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "file-%d", id)
	return fmt.Sprintf("%08x", h.Sum32())
}

// Answer is the exact line the server sends for request id.
func Answer(id int) string { return answer(id, Body(id)) }

func answer(id int, body string) string { return fmt.Sprintf("OK %d %s\n", id, body) }

// handler holds the three steps of serving a request; the architectures
// differ only in which goroutines run them.
type handler struct {
	cfg Config
	st  *Stats
}

// serve runs all three steps on one connection.
func (h handler) serve(conn net.Conn) {
	id, err := h.parse(conn)
	if err != nil {
		h.fail(conn, err)
		return
	}
	h.reply(conn, id, h.read(id))
}

// parse reads and checks the request line "GET <id>".
func (h handler) parse(conn net.Conn) (int, error) {
	if err := conn.SetDeadline(time.Now().Add(h.cfg.Timeout)); err != nil {
		return 0, err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return 0, err
	}
	arg, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "GET ")
	id, err := strconv.Atoi(arg)
	if !ok || err != nil || id < 0 {
		return 0, errors.New("bad request")
	}
	return id, nil
}

// read is the slow part: a simulated file read.
func (h handler) read(id int) string {
	raiseTo(&h.st.PeakReads, h.st.reading.Add(1))
	time.Sleep(h.cfg.ReadTime) // the lesson's workload: blocking I/O
	h.st.reading.Add(-1)
	return Body(id)
}

func (h handler) reply(conn net.Conn, id int, body string) {
	_, _ = io.WriteString(conn, answer(id, body)) // a client that left is its own problem
	conn.Close()
}

func (h handler) fail(conn net.Conn, err error) {
	_, _ = fmt.Fprintf(conn, "ERR %v\n", err)
	conn.Close()
}

// raiseTo sets *peak to v if v is larger.
func raiseTo(peak *atomic.Int64, v int64) {
	for p := peak.Load(); v > p; p = peak.Load() {
		if peak.CompareAndSwap(p, v) {
			return
		}
	}
}
