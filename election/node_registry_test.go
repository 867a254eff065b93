package election

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ringlab/engine/amqp"
	"ringlab/engine/amqp/amqptest"
	rcli "ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/engine/trace"
)

// signalWriter collects a process's output and closes seen at the first
// write that makes it contain want.
type signalWriter struct {
	want string
	mu   sync.Mutex
	buf  bytes.Buffer
	seen chan struct{}
	once sync.Once
}

func newSignalWriter(want string) *signalWriter {
	return &signalWriter{want: want, seen: make(chan struct{})}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// await waits for w's text, failing t if done closes first; the bound
// only tells a hang from a slow machine.
func await(t *testing.T, w *signalWriter, done <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-w.seen:
	case <-done:
		t.Fatalf("%s: the process ended first:\n%s", what, w.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: not after 30 s", what)
	}
}

// A node process decodes a message type it has never sent and that only
// a fault brings about. Bully with node 5 (the highest id) as initiator
// sends nothing but COORD; here node 2's process is killed once it is up
// and started again, so node 2 comes back with its state lost and holds
// an election: it sends ELECTION and receives OK, a type no fault-free run
// of this spec sends and node 2 never sends. Its new process knows OK from
// the algorithm's message registry alone. Over a real broker, five
// node processes in this test process (skipped without a broker).
func TestNodeProcessDecodesAFaultOnlyType(t *testing.T) {
	url := amqptest.BrokerURL(t)
	t.Setenv(rcli.EnvPrefix, testPrefix+"registry.")
	spec, err := NodeSpec("bully", []string{"--initiators", "5"})
	if err != nil {
		t.Fatal(err)
	}
	names := rcli.BrokerNames(spec.Name, spec.RingNames, "nodes")
	if err := amqp.Setup(t.Context(), url, names, spec.Nodes); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := amqp.Teardown(context.Background(), url, names, spec.Nodes); err != nil {
			t.Error(err)
		}
	})
	dir := t.TempDir()
	type proc struct {
		err       error
		out, errw *signalWriter
		done      chan struct{}
	}
	start := func(ctx context.Context, i int, events, want string) *proc {
		p := &proc{out: newSignalWriter(want), errw: newSignalWriter("waiting for"), done: make(chan struct{})}
		go func() {
			defer close(p.done)
			_, p.err = rcli.ExecuteNode(ctx, spec, rcli.NodeOptions{
				Index: i, Watch: i == 5, URL: url, Events: events, Timeout: time.Minute,
				Tick: 200 * time.Millisecond, RunKey: "bully, node 5 initiates",
			}, p.out, p.errw)
		}()
		return p
	}
	procs := map[int]*proc{}
	for _, i := range []int{1, 3, 4} {
		procs[i] = start(t.Context(), i, "", "recv  ELECTION")
	}
	// node 2's first process: up, then killed before anything reaches it
	ctx, kill := context.WithCancel(t.Context())
	first := start(ctx, 2, "", "")
	await(t, first.errw, first.done, "node 2's first process up")
	kill()
	<-first.done
	log2 := filepath.Join(dir, "node2.ndjson")
	procs[2] = start(t.Context(), 2, log2, "")
	// The initiator's process, which decides when the run is over, starts
	// once node 2's election is under way: its status reports then reach
	// the initiator before any report that could end the run (the report
	// of node 2's crash counts it done until its restart is reported).
	await(t, procs[3].out, procs[3].done, "node 3 receiving node 2's ELECTION")
	procs[5] = start(t.Context(), 5, "", "")
	for i, p := range procs {
		<-p.done
		// the verdicts of Bully depend on its timeouts against the
		// broker's delays; a process that could not decode a message
		// fails with another error
		if p.err != nil && cliutil.Code(p.err) != cliutil.ExitViolation {
			t.Errorf("node %d's process: %v\n%s", i, p.err, p.errw.String())
		}
	}
	sent, recv := map[string]int{}, map[string]int{}
	f, err := os.Open(log2)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	err = trace.Read(f, func(e *trace.Event) error {
		switch {
		case e.Kind == trace.KindSend:
			sent[e.Msg.Type()]++
		case e.Kind == trace.KindRecv:
			recv[e.Msg.Type()]++
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if recv["OK"] == 0 || sent["OK"] != 0 || sent["ELECTION"] == 0 {
		t.Errorf("node 2's restarted process sent %v and received %v: want ELECTION sent, OK received and never sent", sent, recv)
	}
}
