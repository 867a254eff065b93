package servers

import (
	"errors"
	"net"
	"sync"
)

// serveSingle serves one connection at a time, in the accepting goroutine.
func serveSingle(ln net.Listener, h handler) error {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return acceptErr(err)
		}
		h.serve(conn)
	}
}

// servePerRequest starts a goroutine per connection and, once the listener
// is closed, waits for all of them.
func servePerRequest(ln net.Listener, h handler) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		conn, err := ln.Accept()
		if err != nil {
			return acceptErr(err)
		}
		wg.Go(func() { h.serve(conn) })
	}
}

// servePool feeds a fixed set of workers through one bounded queue.
func servePool(ln net.Listener, h handler) error {
	s := startStage(h.cfg.Workers, h.cfg.Queue, h.st, h.serve)
	defer s.stop()
	return acceptInto(ln, s)
}

// request is what flows between the SEDA stages.
type request struct {
	conn net.Conn
	id   int
	body string
}

// serveSEDA chains three stages, each with its own queue and pool: parse
// (light: reads one line), read (the slow file read: the big pool), reply
// (light: writes one line). Stages stop in order, so a stage never sends to
// a stopped one.
func serveSEDA(ln net.Listener, h handler) error {
	reply := startStage(sedaEdge, h.cfg.Queue, h.st, func(r request) { h.reply(r.conn, r.id, r.body) })
	read := startStage(h.cfg.Workers, h.cfg.Queue, h.st, func(r request) {
		r.body = h.read(r.id)
		reply.put(r)
	})
	parse := startStage(sedaEdge, h.cfg.Queue, h.st, func(conn net.Conn) {
		id, err := h.parse(conn)
		if err != nil {
			h.fail(conn, err)
			return
		}
		read.put(request{conn: conn, id: id})
	})
	defer func() { parse.stop(); read.stop(); reply.stop() }()
	return acceptInto(ln, parse)
}

// acceptInto accepts connections into s until the listener is closed.
func acceptInto(ln net.Listener, s *stage[net.Conn]) error {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return acceptErr(err)
		}
		s.put(conn)
	}
}

func acceptErr(err error) error {
	if errors.Is(err, net.ErrClosed) { // the owner closed the listener: a normal stop
		return nil
	}
	return err
}

// stage is a bounded queue and the pool of workers that drains it. put may
// be called from many goroutines; stop is called once, after the last put.
type stage[T any] struct {
	in      chan T
	workers sync.WaitGroup
	st      *Stats
}

func startStage[T any](workers, queue int, st *Stats, fn func(T)) *stage[T] {
	s := &stage[T]{in: make(chan T, queue), st: st}
	for range workers {
		s.workers.Go(func() {
			for v := range s.in {
				fn(v)
			}
		})
	}
	return s
}

// put queues v, waiting while the queue is full. The wait always ends: the
// workers drain the queue, and every connection has a deadline, so no
// worker blocks forever. That wait is the lesson: a full queue makes the
// sender (for the first stage, the acceptor) slow down.
func (s *stage[T]) put(v T) {
	select {
	case s.in <- v:
		return
	default:
	}
	s.st.QueueFull.Add(1)
	s.in <- v
}

// stop closes the queue and waits for the workers to finish what is queued.
func (s *stage[T]) stop() {
	close(s.in)
	s.workers.Wait()
}
