package amqp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// ReconnectWithin bounds how long a run tries to get its connection back
// after losing it; the run fails after that.
const ReconnectWithin = 20 * time.Second

// session is a process's connection to the broker, and the reconnect loop
// amqp091-go does not have: when the connection dies, the first node that
// notices dials again (bounded by ReconnectWithin), and every node opens
// a new channel on the new connection. gen numbers the connections, so
// that nodes that noticed the same loss reconnect once.
type session struct {
	url  string
	wrap func(net.Conn) net.Conn // tests sever connections through it

	mu         sync.Mutex
	conn       *amqp.Connection
	gen        int
	reconnects int
}

func newSession(ctx context.Context, url string, wrap func(net.Conn) net.Conn) (*session, error) {
	s := &session{url: url, wrap: wrap}
	c, err := dial(ctx, url, wrap)
	if err != nil {
		return nil, err
	}
	s.conn, s.gen = c, 1
	return s, nil
}

// channel opens a channel on the current connection, dialing again first
// if it is closed. failed is the generation of the connection the caller's
// channel failed on (0 if none), for the caller's records: a channel can
// fail on a live connection (a protocol error, which the next use of the
// new channel meets again and reports), or before the library has noticed
// that the connection is gone (then opening the channel fails, and the
// connection is replaced).
func (s *session) channel(ctx context.Context, failed int) (*amqp.Channel, int, error) {
	_ = failed
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil {
		return nil, 0, errors.New("the run is over")
	}
	if s.conn.IsClosed() {
		if err := s.redial(ctx); err != nil {
			return nil, 0, err
		}
	}
	ch, err := s.conn.Channel()
	if err != nil {
		// The connection may be gone before the library has noticed
		// ("use of closed network connection" on a connection that is not
		// yet IsClosed): drop it and dial again, once.
		_ = s.conn.Close()
		if err := s.redial(ctx); err != nil {
			return nil, 0, err
		}
		ch, err = s.conn.Channel()
		if err != nil {
			return nil, 0, fmt.Errorf("opening a channel: %w", err)
		}
	}
	return ch, s.gen, nil
}

// redial replaces a closed connection, trying until ReconnectWithin.
func (s *session) redial(ctx context.Context) error {
	deadline := time.Now().Add(ReconnectWithin)
	wait := 100 * time.Millisecond
	for {
		c, err := dial(ctx, s.url, s.wrap)
		if err == nil {
			s.conn, s.gen = c, s.gen+1
			s.reconnects++
			return nil
		}
		if time.Now().Add(wait).After(deadline) {
			return fmt.Errorf("the connection was lost and did not come back within %v: %w", ReconnectWithin, err)
		}
		t := time.NewTimer(wait) // a bounded back-off between attempts, not a synchronisation
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// tryChannel opens a channel if the connection is up, without redialing.
func (s *session) tryChannel() (*amqp.Channel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil || s.conn.IsClosed() {
		return nil, errors.New("no connection")
	}
	return s.conn.Channel()
}

// closeAll ends the session.
func (s *session) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil {
		_ = s.conn.Close()
		s.conn = nil
	}
}

func (s *session) reconnected() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reconnects
}
