package amqp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// ReconnectWithin bounds how long a run tries to get its connection back
// after losing it; the run fails after that.
const ReconnectWithin = 20 * time.Second

// closeWithin bounds the wait for the broker's answer to closing a
// connection after an interruption or a failure.
const closeWithin = 250 * time.Millisecond

// ChannelsPerConnection is how many nodes share one connection. RabbitMQ
// allows 2,047 channels on a connection by default (channel_max); a run
// of more nodes opens more connections, one per ChannelsPerConnection
// nodes, which leaves room for the channels that declare the topology
// and follow the run's end.
const ChannelsPerConnection = 1000

// session is a process's connections to the broker, and the reconnect
// loop amqp091-go does not have: when a connection dies, the first node
// that notices dials again (bounded by ReconnectWithin), and every node on
// it opens a new channel on the new connection. gen numbers each slot's
// connections, so that nodes that noticed the same loss reconnect once.
// Every connection of the first slot, new ones included, first runs
// hello (which holds the run's lock queues, say); again tells a
// connection that replaces a lost one.
type session struct {
	url   string
	wrap  func(net.Conn) net.Conn // tests sever connections through it
	hello func(ctx context.Context, c *amqp.Connection, again bool) error

	mu         sync.Mutex
	slots      []slot
	closed     bool
	reconnects int
}

type slot struct {
	conn *amqp.Connection
	raw  net.Conn // its network connection, which closeAll cuts if the broker is slow to answer
	gen  int
}

// newSession dials n connections (at least one).
func newSession(ctx context.Context, url string, n int, wrap func(net.Conn) net.Conn, hello func(context.Context, *amqp.Connection, bool) error) (*session, error) {
	s := &session{url: url, wrap: wrap, hello: hello, slots: make([]slot, max(n, 1))}
	for k := range s.slots {
		c, raw, err := s.dial(ctx, k, false)
		if err != nil {
			s.closeAll(time.Now().Add(closeWithin))
			return nil, err
		}
		s.slots[k] = slot{conn: c, raw: raw, gen: 1}
	}
	return s, nil
}

// dial connects slot k (again: in place of a lost connection); the first
// slot's connections run hello.
func (s *session) dial(ctx context.Context, k int, again bool) (*amqp.Connection, net.Conn, error) {
	var raw net.Conn
	c, err := dial(ctx, s.url, func(nc net.Conn) net.Conn {
		raw = nc
		if s.wrap != nil {
			return s.wrap(nc)
		}
		return nc
	})
	if err != nil {
		return nil, nil, err
	}
	if k == 0 && s.hello != nil {
		if err := s.hello(ctx, c, again); err != nil {
			_ = c.Close()
			return nil, nil, err
		}
	}
	return c, raw, nil
}

// slotOf is the connection slot of the k-th local node (from 0).
func slotOf(k int) int { return k / ChannelsPerConnection }

// channel opens a channel on connection slot k, dialing again first if it
// is closed. failed is the generation of the connection the caller's
// channel failed on (0 if none), for the caller's records: a channel can
// fail on a live connection (a protocol error, which the next use of the
// new channel meets again and reports), or before the library has noticed
// that the connection is gone (then opening the channel fails, and the
// connection is replaced).
func (s *session) channel(ctx context.Context, k int, failed int) (*amqp.Channel, int, error) {
	_ = failed
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, 0, errors.New("the run is over")
	}
	sl := &s.slots[k]
	if sl.conn.IsClosed() {
		if err := s.redial(ctx, k); err != nil {
			return nil, 0, err
		}
	}
	ch, err := sl.conn.Channel()
	if err != nil {
		// The connection may be gone before the library has noticed
		// ("use of closed network connection" on a connection that is not
		// yet IsClosed): drop it and dial again, once.
		_ = sl.conn.Close()
		if err := s.redial(ctx, k); err != nil {
			return nil, 0, err
		}
		ch, err = sl.conn.Channel()
		if err != nil {
			return nil, 0, fmt.Errorf("opening a channel: %w", err)
		}
	}
	return ch, sl.gen, nil
}

// redial replaces a closed connection, trying until ReconnectWithin.
func (s *session) redial(ctx context.Context, k int) error {
	sl := &s.slots[k]
	deadline := time.Now().Add(ReconnectWithin)
	wait := 100 * time.Millisecond
	for {
		c, raw, err := s.dial(ctx, k, true)
		if err == nil {
			sl.conn, sl.raw, sl.gen = c, raw, sl.gen+1
			s.reconnects++
			return nil
		}
		if errors.Is(err, ErrHeld) {
			return err
		}
		if time.Now().Add(wait).After(deadline) {
			return fmt.Errorf("the connection was lost and did not come back within %v: %w", ReconnectWithin, err)
		}
		if err := backOff(ctx, wait); err != nil {
			return err
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// tryChannel opens a channel on the first connection if it is up,
// without redialing.
func (s *session) tryChannel() (*amqp.Channel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.slots[0].conn.IsClosed() {
		return nil, errors.New("no connection")
	}
	return s.slots[0].conn.Channel()
}

// closeAll ends the session: closing a connection closes its channels,
// in one round trip. It waits for the broker's answers until deadline at
// most (closing thousands of channels takes the broker a while; what it
// received before is carried out all the same), then cuts the network
// connections that have not closed.
func (s *session) closeAll(deadline time.Time) {
	s.mu.Lock()
	s.closed = true
	slots := slices.Clone(s.slots)
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, sl := range slots {
		if sl.conn != nil && !sl.conn.IsClosed() {
			wg.Go(func() { _ = sl.conn.CloseDeadline(deadline) })
		}
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	t := time.NewTimer(time.Until(deadline) + closeWithin/2)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		for _, sl := range slots {
			if sl.raw != nil {
				_ = sl.raw.Close()
			}
		}
		<-done
	}
}

func (s *session) reconnected() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reconnects
}

// backOff waits d between two attempts at something the broker refused (a
// bounded back-off, not a synchronisation), or until ctx is done.
func backOff(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
