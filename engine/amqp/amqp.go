// Package amqp is ringlab's RabbitMQ runtime: it runs the same node.Node
// state machines as engine/sim and engine/live, but every message goes
// through a broker (github.com/rabbitmq/amqp091-go), so the nodes of one run
// may live in one process or each in its own process, on one machine or
// many.
//
// Topology: a direct exchange, not durable, and one queue per node bound
// with its own name as routing key; node i sends to node j by publishing
// with j's key. The ring election uses the names its assignment gives
// (exchange leader.election.ring, queues node.1 .. node.N; see RingNames);
// other algorithms prefix every name by the algorithm and a run id
// (RunNames).
//
// Delivery: each node publishes on a channel of its own, so every link is
// FIFO; publishes are mandatory (a message no queue takes comes back, and
// fails the run) and confirmed by the broker before the step that sent them
// is over; a message is acknowledged after it has been handled and what it
// caused is confirmed. Every message carries its link's sequence number
// (its AMQP message id is FROM.TO.SEQ): a receiver drops a delivery whose
// number it has handled already, which happens after a reconnect, when the
// broker redelivers what was not acknowledged, or when a sender publishes
// again what was not confirmed. amqp091-go has no recovery: the reconnect
// loop is this package's (session.go).
//
// Termination: in one process, the runtime sees every node's counters
// directly; across processes, every node process reports its counters
// after each step to the watching process (the initiator), which decides
// the end by counting messages per link (tracker.go) and announces it to
// the others. In a mixed ring (Runtime.Mixed), whose other nodes may be
// programs that speak only the ring specification's wire (its JSON body,
// no header; Runtime.Plain), nobody watches: each process ends when its
// nodes' own rules end them.
//
// Runtime.Run starts every goroutine it uses and joins them before it
// returns. A broker that cannot be reached fails it within DialTimeout.
package amqp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
	"golang.org/x/sync/errgroup"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// config describes one run, or this process's part of it: a Runtime and
// a System together, and the tests' hooks.
type config struct {
	URL     string        // the broker: amqp://user:pass@host:port/vhost
	Names   Names         // the exchange and queue names of the run (RunNames, RingNames)
	Nodes   int           // the number of nodes of the whole run, indexed 1..Nodes
	Factory node.Factory  // called for each local node, and again on restart
	Codec   *trace.Codec  // the algorithm's message registry (trace.NewCodec); required
	Script  []node.Action // commands, crashes and restarts at absolute times (ticks)
	React   node.React    // its actions must be for nodes of this process
	// Workload answers node events with actions (for nodes of this
	// process) and hears of crashes and restarts; React is its
	// plain-function form (engine.ReactFunc). Set one of them, or neither.
	Workload engine.Workload
	Tick     time.Duration
	Timeout  time.Duration // zero: no bound

	// Local lists the nodes this process runs; nil means all of them, in
	// one process. With some nodes elsewhere, Watch makes this process the
	// one that decides the end (exactly one process of a run watches); the
	// others end when it says so.
	Local []int
	Watch bool

	// Run is the run's id, carried in every message's headers; messages
	// of another run are dropped. Empty in multi-process runs (their
	// processes share no id: `ringlab amqp setup` empties the queues).
	Run string
	// Purge empties the run's queues first; Teardown deletes its exchange
	// and queues at the end, however it ends (one-process runs).
	Purge, Teardown bool
	// Lock holds the names for this run alone, on queues exclusive to
	// this process's connection (released when it closes, however the
	// process ends): a one-process run holds Names.Lock, a node process
	// Names.NodeLock of its node. A run whose names are held fails with
	// ErrHeld; a node process whose node lock is taken while the names
	// are its own run's waits for it first (see holdNames): a killed
	// process of its node may hold it until the broker notices.
	Lock bool
	// RunKey describes a multi-process run (its algorithm and
	// parameters): the first process of a run leaves it in Names.Run,
	// and a process whose RunKey differs fails with ErrHeld. The watcher
	// removes it at the end of the run.
	RunKey string
	// Plain and Mixed: see Runtime.
	Plain, Mixed bool

	// Sink receives every event, one call at a time. A watching process
	// also receives the events other processes report (without Msg.Value);
	// Local tells them apart. The *Event is not reused. Messages adds
	// send and recv events; Skip lists kinds the Sink does not want
	// (they are not built).
	Sink     func(*trace.Event)
	Messages bool
	Skip     trace.Kinds
	// Started, if set, is called once every local node consumes its
	// queue, a watcher holds its role and another process listens for the
	// end, before any node acts.
	Started func()

	// tests
	wrap func(net.Conn) net.Conn
	// lockWait replaces lockWithin; lockWaiting is called once a process
	// starts waiting for its lock
	lockWait    time.Duration
	lockWaiting func()
	// afterSends is called after a step's messages are confirmed, before
	// its input is acknowledged (from, seq: the input message; 0 for a
	// command or a timer)
	afterSends func(node, from int, seq int64)
}

// result is what a run did (in a multi-process run, the watcher's result
// sums every node's reports; another process's covers its own nodes).
type result struct {
	Steps      int64            // inputs handled by nodes
	Messages   int64            // messages sent
	ByType     map[string]int64 // messages sent, by message type
	Elapsed    time.Duration    // wall time of the run
	Now        int64            // ticks
	Quiescent  bool             // the run ended: every node done or quiet, no message in flight
	Exhausted  bool             // Timeout passed first
	Duplicates int64            // deliveries dropped as already handled
	Foreign    int64            // deliveries of another run, dropped
	Reconnects int              // times the connection to the broker was made again
}

// run executes cfg and returns when its part of the run has ended.
func run(ctx context.Context, cfg config) (result, error) {
	if err := cfg.validate(); err != nil {
		return result{}, err
	}
	r := &runner{cfg: cfg, track: newTracker(cfg.Nodes), end: make(chan struct{}), proc: procID()}
	return r.run(ctx)
}

func (c *config) validate() error {
	switch {
	case c.Nodes < 1:
		return fmt.Errorf("amqp: need at least 1 node, got %d", c.Nodes)
	case c.Factory == nil:
		return errors.New("amqp: no node factory")
	case c.Names.Exchange == "":
		return errors.New("amqp: no exchange name")
	case c.Codec == nil:
		return errors.New("amqp: no codec: make one from the algorithm's message registry (trace.NewCodec)")
	case c.Mixed && (c.Watch || c.RunKey != ""):
		return errors.New("amqp: a mixed run has no watcher and no run key")
	}
	if c.Tick <= 0 {
		c.Tick = time.Millisecond
	}
	c.Workload = engine.WorkloadOf(c.Workload, c.React)
	if c.Local == nil {
		for i := 1; i <= c.Nodes; i++ {
			c.Local = append(c.Local, i)
		}
	}
	for _, i := range c.Local {
		if i < 1 || i > c.Nodes {
			return fmt.Errorf("amqp: node %d is outside 1..%d", i, c.Nodes)
		}
	}
	for _, a := range c.Script {
		if a.Node < 1 || a.Node > c.Nodes || a.At < 0 {
			return fmt.Errorf("amqp: scripted %s for node %d at t=%d is out of range", a.Cmd, a.Node, a.At)
		}
	}
	return nil
}

// runner is one run's shared state in this process.
type runner struct {
	cfg     config
	sess    *session
	start   time.Time
	abs     bool // event times are Unix ns (multi-process runs), else ns since start
	multi   bool // some nodes are in other processes
	members map[int]*member
	track   *tracker
	proc    string // this process's id in its reports
	// handed counts the actions a node's reaction handed to another node
	// of this process that it has not yet carried out (and reported): the
	// nodes' reports do not show them, so the run is not over while any is
	// left.
	handed atomic.Int64
	// localDone counts the local nodes that are done (mixed runs)
	localDone atomic.Int64
	// standing: a one-process run found the names' queues standing
	// (stands): it uses them and leaves them; declared: its declarations
	// all succeeded (a run refused before has nothing of its own to
	// delete: its queues expire)
	standing, declared bool

	sinkMu sync.Mutex

	end     chan struct{} // closed once the run is over
	endOnce sync.Once
	errMu   sync.Mutex
	err     error
	ended   bool // the end was decided or announced (not a failure)

	dups, foreign int64 // under sinkMu
	endc          *endCh
	watchc        *watcher
}

// run carries out the run: it connects, declares the topology, opens a
// channel for every local node, starts them and waits for the end, then
// tallies what the run did.
func (r *runner) run(ctx context.Context) (result, error) {
	parent := ctx // cancelled when the caller interrupts the run
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.multi = len(r.cfg.Local) < r.cfg.Nodes
	r.abs = r.multi
	var hello func(context.Context, *amqp.Connection, bool) error
	if r.cfg.Lock {
		hello = r.holdNames
	}
	sess, err := newSession(ctx, r.cfg.URL, slotOf(len(r.cfg.Local)-1)+1, r.cfg.wrap, hello)
	if err != nil {
		return result{}, err
	}
	r.sess = sess
	// closing the connections closes every channel, in one round trip a
	// connection
	defer func() {
		wait := DialTimeout
		if parent.Err() != nil {
			wait = closeWithin
		}
		sess.closeAll(time.Now().Add(wait))
	}()
	if r.cfg.Teardown {
		// whatever the end, before the connections close
		defer r.teardown(parent)
	}
	if err := r.prepare(ctx); err != nil {
		return result{}, err
	}
	if err := r.openMembers(ctx); err != nil {
		return result{}, err
	}
	var wg sync.WaitGroup
	if err := r.launch(ctx, &wg); err != nil {
		return result{}, err
	}
	res, err := r.wait(ctx)
	cancel()
	wg.Wait()
	return r.tally(res, err)
}

// openMembers makes a member of every local node and opens its channel.
// Every member opens its channel before any starts: a node's first
// message must not reach a queue nobody of this run consumes yet (it
// would wait there anyway, but the run would look stalled). A run of
// several processes that watches claims the watch here.
func (r *runner) openMembers(ctx context.Context) error {
	r.members = map[int]*member{}
	for k, i := range r.cfg.Local {
		m, err := r.newMember(i)
		if err != nil {
			return err
		}
		m.slot = slotOf(k)
		r.members[i] = m
	}
	var opens errgroup.Group
	opens.SetLimit(parallelChannels)
	for _, i := range r.cfg.Local {
		m := r.members[i]
		opens.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return m.open(ctx, 0)
		})
	}
	if err := opens.Wait(); err != nil {
		return err
	}
	if r.multi && r.cfg.Watch {
		if err := r.claimWatch(ctx); err != nil {
			for _, m := range r.members {
				m.closeChannel()
			}
			return err
		}
	}
	return nil
}

// launch starts the run's clock and its goroutines, counted by wg: every
// local node's loop and, in a run of several processes, the watcher (or
// the wait for the watcher's end) after the nodes' states are recovered
// or first saved.
func (r *runner) launch(ctx context.Context, wg *sync.WaitGroup) error {
	// the run's time starts once every local node consumes its queue
	r.start = time.Now()
	for _, m := range r.members {
		m.schedule()
	}
	if r.multi {
		if err := r.recoverStates(ctx); err != nil {
			return err
		}
		// A node whose process ran before in this run comes back with its
		// state reset, as the engine's crash and restart: its events say
		// so (crash, recover), so the checkers judge what the simulator
		// judges for the same crash and restart, and its workload does
		// not start again (the simulator's restarted node does not run it
		// twice either).
		for _, m := range r.members {
			if m.restarted {
				m.acts = []timed{{due: r.start, cmd: node.CmdCrash}, {due: r.start, cmd: node.CmdRestart}}
				continue
			}
			if !r.keepsState() {
				continue
			}
			// the node's first state, saved before it can send anything:
			// a process killed in its first step is restarted as a crash
			if err := m.saveState(ctx); err != nil {
				return err
			}
		}
		if r.cfg.Watch {
			wg.Go(func() { r.watch(ctx) })
		} else {
			wg.Go(func() { r.awaitEnd(ctx) })
		}
	}
	if r.cfg.Started != nil {
		r.cfg.Started()
	}
	for _, i := range r.cfg.Local {
		m := r.members[i]
		wg.Go(func() { m.loop(ctx) })
	}
	return nil
}

// wait waits for the run's end, its timeout (Exhausted) or ctx (its
// error).
func (r *runner) wait(ctx context.Context) (result, error) {
	var timeout <-chan time.Time
	if r.cfg.Timeout > 0 {
		t := time.NewTimer(r.cfg.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	var res result
	select {
	case <-r.end:
	case <-timeout:
		res.Exhausted = true
	case <-ctx.Done():
		return res, ctx.Err()
	}
	return res, nil
}

// tally completes res once every goroutine of the run has returned: its
// time, whether it ended as it should (a failure a node reported is the
// run's error, unless the run already has one or timed out), and its
// counts.
func (r *runner) tally(res result, err error) (result, error) {
	res.Elapsed = time.Since(r.start)
	res.Now = int64(res.Elapsed / r.cfg.Tick)
	r.errMu.Lock()
	if r.err != nil && err == nil && !res.Exhausted {
		err = r.err
	}
	res.Quiescent = r.ended && err == nil && !res.Exhausted
	r.errMu.Unlock()
	if r.cfg.Watch || !r.multi {
		res.Steps, res.ByType = r.track.totals()
	} else {
		res.ByType = map[string]int64{}
		for _, m := range r.members {
			res.Steps += m.steps
			for k, v := range m.byType {
				res.ByType[k] += v
			}
		}
	}
	for _, v := range res.ByType {
		res.Messages += v
	}
	res.Duplicates, res.Foreign = r.dups, r.foreign
	res.Reconnects = r.sess.reconnected()
	if r.cfg.Watch && r.cfg.RunKey != "" && res.Quiescent {
		r.releaseRun() // the names are free for the next run
	}
	return res, err
}

// interruptedTeardown bounds the wait for the broker's deletions after an
// interruption: the rest of them happen after the process has gone (the
// broker carries out what it received), and queueExpires deletes the
// queues the broker did not get to.
const interruptedTeardown = 300 * time.Millisecond

// teardown deletes what the run declared, unless it found the topology
// standing. An interrupted run waits for the broker at most
// interruptedTeardown (deleting thousands of queues takes the broker
// seconds); another waits until it is done.
func (r *runner) teardown(ctx context.Context) {
	if r.standing || !r.declared {
		return // not this run's: it found them, it leaves them
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = teardown(r.sess.tryChannel, r.cfg.Names, r.cfg.Nodes, r.multi)
	}()
	select {
	case <-done:
		return
	case <-ctx.Done(): // interrupted before, or while, deleting
	}
	t := time.NewTimer(interruptedTeardown)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		r.sess.closeAll(time.Now().Add(closeWithin)) // the teardown's wait ends with the connection
		<-done
	}
}

// prepare declares the topology (and empties it, with Purge).
func (r *runner) prepare(ctx context.Context) error {
	open := func() (*amqp.Channel, error) {
		ch, _, err := r.sess.channel(ctx, 0, 0)
		return ch, err
	}
	if !r.multi {
		var err error
		if r.standing, err = stands(open, r.cfg.Names); err != nil {
			return err
		}
	}
	if err := declare(ctx, open, r.cfg.Names, r.cfg.Nodes, r.multi, r.standing); err != nil {
		return err
	}
	r.declared = true
	if r.multi && r.cfg.RunKey != "" {
		if err := r.claimRun(ctx); err != nil {
			return err
		}
	}
	if r.cfg.Purge {
		return purge(ctx, open, r.cfg.Names, r.cfg.Nodes, false)
	}
	return nil
}

// keepsState reports whether the local nodes save their transport
// counters for a restarted process: in a multi-process run that is not
// mixed (a mixed run's other programs keep no such thing, and no watcher
// empties what a run left for the next).
func (r *runner) keepsState() bool { return r.multi && !r.cfg.Mixed }

// finish ends the run (once); err nil means it ended as it should.
func (r *runner) finish(err error) {
	r.errMu.Lock()
	if err != nil && r.err == nil && !r.ended {
		r.err = err
	}
	if err == nil && r.err == nil {
		r.ended = true
	}
	r.errMu.Unlock()
	r.endOnce.Do(func() { close(r.end) })
}

func (r *runner) over() bool {
	select {
	case <-r.end:
		return true
	default:
		return false
	}
}

// procID is a fresh id for this process's reports.
func procID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// now is an event's time.
func (r *runner) now() int64 {
	if r.abs {
		return time.Now().UnixNano()
	}
	return int64(time.Since(r.start))
}

func (r *runner) sink(e *trace.Event) {
	if r.cfg.Sink == nil {
		return
	}
	r.sinkMu.Lock()
	r.cfg.Sink(e)
	r.sinkMu.Unlock()
}

func (r *runner) dropped(foreign bool) {
	r.sinkMu.Lock()
	if foreign {
		r.foreign++
	} else {
		r.dups++
	}
	r.sinkMu.Unlock()
}

// report records a local node's status: directly when this process
// decides the end, else by publishing it to the watcher with the step's
// events (on the node's own channel, so reports follow its messages).
func (r *runner) report(ctx context.Context, s *status) {
	if !r.multi || r.cfg.Watch {
		if r.track.update(s) && r.handed.Load() == 0 {
			r.decided(ctx)
		}
	}
}

// carriedOut records that an action one node handed another was carried
// out and reported, and ends the run if that was all that held it up.
func (r *runner) carriedOut(ctx context.Context) {
	if r.handed.Add(-1) == 0 && (!r.multi || r.cfg.Watch) && r.track.over() {
		r.decided(ctx)
	}
}

// decided ends a run whose end this process decided, telling the other
// processes.
func (r *runner) decided(ctx context.Context) {
	if r.multi {
		if err := r.announce(ctx); err != nil {
			r.finish(err)
			return
		}
	}
	r.finish(nil)
}
