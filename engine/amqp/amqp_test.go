package amqp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
	"go.uber.org/goleak"

	"ringlab/engine"
	"ringlab/engine/internal/nodetest"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// brokerURL is the broker of the integration tests; they skip when none
// answers there.
func brokerURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(EnvURL)
	if url == "" {
		url = DefaultURL
	}
	if err := Probe(context.Background(), url); err != nil {
		t.Skipf("needs RabbitMQ: run bash .ci/run, or start rabbitmq-server (%v)", err)
	}
	return url
}

var runIDs struct {
	sync.Mutex
	n int
}

// testNames are fresh broker names for one test run.
func testNames(t testing.TB) (Names, string) {
	runIDs.Lock()
	runIDs.n++
	id := fmt.Sprintf("test%d-%d", os.Getpid(), runIDs.n)
	runIDs.Unlock()
	return RunNames("test "+t.Name(), id), id
}

// simCount is the messages the simulator sends for the same run.
func simCount(t *testing.T, n int, f node.Factory, script []node.Action) int64 {
	t.Helper()
	res, err := sim.Runtime{Seed: 1}.Run(t.Context(), engine.System{Nodes: n, Factory: f, Script: script}, nil)
	if err != nil || res.End != engine.Quiescent {
		t.Fatalf("sim: %v, %v", err, res.End)
	}
	return res.Messages
}

func start1() []node.Action { return []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}} }

// oneProcess runs every node in this process, on fresh names, deleted after.
// testCodec is the codec of nodetest's message registry.
func testCodec() *trace.Codec { return trace.NewCodec(nodetest.MessageTypes()...) }

// A run needs the codec of its algorithm's registry: without one it is
// refused before any connection.
func TestRunWithoutCodecIsRefused(t *testing.T) {
	_, err := run(t.Context(), config{URL: "amqp://guest:guest@127.0.0.1:1/", Names: RingNames(), Nodes: 2,
		Factory: nodetest.PassFactory(2, 3), Script: start1()})
	if err == nil || !strings.Contains(err.Error(), "no codec") {
		t.Errorf("err = %v, want the refusal of a run without a codec", err)
	}
}

func oneProcess(t *testing.T, cfg config) result {
	t.Helper()
	cfg.URL = brokerURL(t)
	cfg.Names, cfg.Run = testNames(t)
	cfg.Purge, cfg.Teardown = true, true
	t.Cleanup(func() {
		if left := queuesLeft(t, cfg.URL, cfg.Names, cfg.Nodes); left != 0 {
			t.Errorf("the run left %d of its %d queues", left, cfg.Nodes)
		}
	})
	if cfg.Timeout == 0 {
		cfg.Timeout = time.Minute
	}
	res, err := run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Quiescent {
		t.Fatalf("the run did not end: %+v", res)
	}
	return res
}

func TestTokenRingCountsAsSimulator(t *testing.T) {
	for _, c := range []struct{ n, hops int }{{1, 0}, {3, 9}, {10, 57}} {
		f := nodetest.PassFactory(c.n, c.hops)
		var events []trace.Event
		res := oneProcess(t, config{Codec: testCodec(), Nodes: c.n, Factory: f, Script: start1(), Messages: true,
			Sink: func(e *trace.Event) { events = append(events, *e) }})
		if want := simCount(t, c.n, f, start1()); res.Messages != want || res.ByType["TOKEN"] != want {
			t.Errorf("n=%d hops=%d: %d messages (%v), the simulator sends %d", c.n, c.hops, res.Messages, res.ByType, want)
		}
		var sends, recvs int64
		for _, e := range events {
			switch e.Kind {
			case trace.KindSend:
				sends++
			case trace.KindRecv:
				recvs++
			}
		}
		if sends != int64(c.hops) || recvs != int64(c.hops) || res.Duplicates != 0 {
			t.Errorf("n=%d: %d send and %d recv events for %d hops, %d duplicates", c.n, sends, recvs, c.hops, res.Duplicates)
		}
	}
}

func TestFloodCountsAsSimulator(t *testing.T) {
	topo := node.Complete(6)
	f := nodetest.FloodFactory(topo)
	res := oneProcess(t, config{Codec: testCodec(), Nodes: 6, Factory: f, Script: start1()})
	if want := simCount(t, 6, f, start1()); res.Messages != want {
		t.Errorf("%d messages, the simulator sends %d", res.Messages, want)
	}
}

// A message published while its receiver is crashed waits in its queue,
// and the restarted node handles it: nothing is lost.
func TestCrashedNodeResumesFromItsQueue(t *testing.T) {
	f := nodetest.PassFactory(3, 7)
	script := append(start1(),
		node.Action{At: 0, Node: 2, Cmd: node.CmdCrash},
		node.Action{At: 30, Node: 2, Cmd: node.CmdRestart})
	var crashed, recovered bool
	res := oneProcess(t, config{Codec: testCodec(), Nodes: 3, Factory: f, Script: script, Tick: time.Millisecond,
		Sink: func(e *trace.Event) {
			crashed = crashed || e.Kind == trace.KindCrash
			recovered = recovered || e.Kind == trace.KindRecover
		}})
	if res.Messages != 7 || !crashed || !recovered {
		t.Errorf("%d messages (want 7, none lost), crash %v, recover %v", res.Messages, crashed, recovered)
	}
}

// severable wraps the connections a run dials so a test can cut them
// like a network failure (not a clean AMQP close).
type severable struct {
	mu    sync.Mutex
	conns []net.Conn
}

func (s *severable) wrap(c net.Conn) net.Conn {
	s.mu.Lock()
	s.conns = append(s.conns, c)
	s.mu.Unlock()
	return c
}

func (s *severable) sever() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		_ = c.Close()
	}
}

// The connection dies after node 2 has handled a message and its sends
// are confirmed, but before the ack: the run reconnects, the broker
// delivers the message again, and node 2 drops it. Counts stay the
// simulator's.
func TestDuplicateAfterReconnectCountsOnce(t *testing.T) {
	f := nodetest.PassFactory(3, 7)
	var sev severable
	var once sync.Once
	var recvs int64
	cfg := config{Codec: testCodec(), Nodes: 3, Factory: f, Script: start1(), Messages: true, wrap: sev.wrap,
		Sink: func(e *trace.Event) {
			if e.Kind == trace.KindRecv {
				recvs++
			}
		},
		afterSends: func(i, from int, _ int64) {
			if i == 2 && from > 0 {
				once.Do(sev.sever)
			}
		}}
	res := oneProcess(t, cfg)
	if want := simCount(t, 3, f, start1()); res.Messages != want || recvs != want {
		t.Errorf("%d messages, %d handled; the simulator sends %d", res.Messages, recvs, want)
	}
	if res.Reconnects < 1 || res.Duplicates < 1 {
		t.Errorf("want a reconnect and a dropped duplicate, got %d reconnects, %d duplicates", res.Reconnects, res.Duplicates)
	}
}

// A copy of a message that reaches a queue twice (a publisher that could
// not know the broker had it) is handled once.
func TestDuplicatePublishIsDroppedByID(t *testing.T) {
	f := nodetest.PassFactory(2, 4)
	var sev severable
	var once sync.Once
	// cut the connection after node 1's first publish is confirmed and
	// before its step ends: its next message may then be published again
	cfg := config{Codec: testCodec(), Nodes: 2, Factory: f, Script: start1(), wrap: sev.wrap,
		afterSends: func(i, from int, _ int64) {
			if i == 1 && from == 0 {
				once.Do(sev.sever)
			}
		}}
	res := oneProcess(t, cfg)
	if res.Messages != 4 {
		t.Errorf("%d messages, want 4", res.Messages)
	}
}

// A closed port fails at once; a port that accepts and never answers
// fails within DialTimeout: never a hang.
func TestUnreachableBrokerFailsFast(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	var held []net.Conn
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	})
	for _, addr := range []string{closed, silent.Addr().String()} {
		t0 := time.Now()
		_, err := run(t.Context(), config{Codec: testCodec(), URL: "amqp://guest:guest@" + addr + "/", Names: RingNames(), Nodes: 3,
			Factory: nodetest.PassFactory(3, 3), Script: start1()})
		if !errors.Is(err, ErrUnreachable) {
			t.Errorf("%s: err = %v, want ErrUnreachable", addr, err)
		}
		// DialTimeout (4 s) bounds the silent port; the bound here only
		// tells a hang from a slow machine
		if d := time.Since(t0); d > 30*time.Second {
			t.Errorf("%s: failed after %v, want it bounded (DialTimeout is %v)", addr, d, DialTimeout)
		}
	}
	silent.Close()
	wg.Wait()
	for _, c := range held {
		c.Close()
	}
}

// A message no queue takes comes back (mandatory publishing) and fails
// the run, naming its routing key: here node 2's binding is removed after
// node 1's first message, so node 1's second message to node 2 returns.
func TestReturnedMessageFailsTheRun(t *testing.T) {
	url := brokerURL(t)
	names, id := testNames(t)
	var once sync.Once
	var unbindErr error
	cfg := config{Codec: testCodec(), URL: url, Names: names, Run: id, Nodes: 2, Factory: nodetest.PassFactory(2, 3), Script: start1(),
		Purge: true, Teardown: true, Timeout: time.Minute,
		afterSends: func(i, from int, _ int64) {
			if i == 1 && from == 0 {
				once.Do(func() {
					unbindErr = withChannel(context.Background(), url, func(ch *amqp.Channel) error {
						return ch.QueueUnbind(names.Queue(2), names.Queue(2), names.Exchange, nil)
					})
				})
			}
		}}
	_, err := run(t.Context(), cfg)
	if unbindErr != nil {
		t.Fatal(unbindErr)
	}
	if err == nil || !strings.Contains(err.Error(), "returned") || !strings.Contains(err.Error(), names.Queue(2)) {
		t.Fatalf("err = %v, want the returned message to node 2 named", err)
	}
}

// queuesLeft counts which of names' node queues 1..n exist (a passive
// declare fails on a missing queue, and closes its channel).
func queuesLeft(t *testing.T, url string, names Names, n int) int {
	t.Helper()
	left := 0
	conn, err := dial(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for i := 1; i <= n; i++ {
		ch, err := conn.Channel()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ch.QueueDeclarePassive(names.Queue(i), false, false, false, false, nil); err == nil {
			left++
			_ = ch.Close()
		}
	}
	return left
}

// A one-process run deletes the queues it declared, whether it ends as
// it should or fails.
func TestOneProcessRunLeavesNoQueue(t *testing.T) {
	url := brokerURL(t)
	f := nodetest.PassFactory(4, 9)
	ok := config{Codec: testCodec(), URL: url, Nodes: 4, Factory: f, Script: start1(), Purge: true, Teardown: true, Lock: true, Timeout: time.Minute}
	ok.Names, ok.Run = testNames(t)
	if res, err := run(t.Context(), ok); err != nil || !res.Quiescent {
		t.Fatalf("%v, quiescent %v", err, res.Quiescent)
	}
	if n := queuesLeft(t, url, ok.Names, 4); n != 0 {
		t.Errorf("a run that ended left %d of its 4 queues", n)
	}
	bad := ok
	bad.Names, bad.Run = testNames(t)
	bad.Factory = func(i int) (node.Node, error) {
		if i == 3 {
			return nil, errors.New("no node 3")
		}
		return f(i)
	}
	if _, err := run(t.Context(), bad); err == nil {
		t.Fatal("a run whose node 3 cannot be built succeeded")
	}
	if n := queuesLeft(t, url, bad.Names, 4); n != 0 {
		t.Errorf("a run that failed left %d of its 4 queues", n)
	}
}

// A second run on names a one-process run holds is refused with
// ErrHeld, and the names are free once the first has ended.
func TestHeldNamesRefuseASecondRun(t *testing.T) {
	url := brokerURL(t)
	names, id := testNames(t)
	second := make(chan error, 1)
	var once sync.Once
	cfg := config{Codec: testCodec(), URL: url, Names: names, Run: id, Nodes: 2, Factory: nodetest.PassFactory(2, 3), Script: start1(),
		Purge: true, Teardown: true, Lock: true, Timeout: time.Minute}
	first := cfg
	first.afterSends = func(int, int, int64) {
		once.Do(func() {
			_, err := run(context.Background(), cfg)
			second <- err
		})
	}
	if res, err := run(t.Context(), first); err != nil || !res.Quiescent {
		t.Fatalf("the first run: %v, quiescent %v", err, res.Quiescent)
	}
	if err := <-second; !errors.Is(err, ErrHeld) || strings.Count(err.Error(), "\n") != 0 {
		t.Fatalf("the second run, while the first held the names: %v, want ErrHeld in one line", err)
	}
	if res, err := run(t.Context(), cfg); err != nil || !res.Quiescent {
		t.Fatalf("a run after the first ended: %v, quiescent %v", err, res.Quiescent)
	}
}

// More nodes than RabbitMQ's 2,047 channels a connection: the run opens
// more connections, ends with the simulator's count, and leaves no queue.
func TestMoreNodesThanChannelsOfAConnection(t *testing.T) {
	if testing.Short() {
		t.Skip("2,100 queues: seconds on a broker")
	}
	const n = 2100
	f := nodetest.PassFactory(n, n)
	cfg := config{Codec: testCodec(), Nodes: n, Factory: f, Script: start1(), Lock: true}
	res := oneProcess(t, cfg)
	if res.Messages != n {
		t.Errorf("%d messages, want %d", res.Messages, n)
	}
	if res.Reconnects != 0 {
		t.Errorf("%d reconnects", res.Reconnects)
	}
}

// An interrupted run returns at once with what it did so far: the
// context's error, and the messages counted until then.
func TestInterruptedRunReturnsItsPartialResult(t *testing.T) {
	url := brokerURL(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	const cut = 20
	var recvs int
	cfg := config{Codec: testCodec(), URL: url, Nodes: 50, Factory: nodetest.PassFactory(50, 1_000_000), Script: start1(),
		Purge: true, Teardown: true, Lock: true, Messages: true,
		Sink: func(e *trace.Event) {
			if e.Kind == trace.KindRecv {
				if recvs++; recvs == cut {
					cancel()
				}
			}
		}}
	cfg.Names, cfg.Run = testNames(t)
	t0 := time.Now()
	res, err := run(ctx, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// The count is partial: some messages, not the whole run's. How many of
	// the cut's receipts it holds depends on the machine's load (a send is
	// counted once its step is done, which may come after the receipt the
	// cancel followed), so no exact bound is judged.
	if res.Quiescent || res.Messages < 1 || res.Messages >= 1_000_000 {
		t.Errorf("quiescent %v, %d messages: want a partial count, between 1 and the whole run's 1,000,000", res.Quiescent, res.Messages)
	}
	if d := time.Since(t0); d > 30*time.Second { // a hang, not a slow machine
		t.Errorf("the interrupted run took %v to return", d)
	}
}
