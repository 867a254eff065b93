package trace

import (
	"bufio"
	"fmt"
)

// maxCollect bounds the events a picture renderer keeps; past it the
// picture says it was cut.
const maxCollect = 200_000

// MaxPictureNodes bounds the nodes a picture draws: the events of the
// others are left out, and the picture says it was cut.
const MaxPictureNodes = 1000

// collector keeps a run's events for the renderers that draw the whole run
// at once (mermaid, svg, shiviz, chrome-trace).
type collector struct {
	w       *bufio.Writer
	h       *Header
	ev      []Event
	sum     *Summary
	skipped int // events past maxCollect
	done    bool
}

func (c *collector) Header(h *Header) error { c.h = h; return nil }

func (c *collector) Event(e *Event) error {
	if len(c.ev) >= maxCollect || e.Node > MaxPictureNodes || e.From > MaxPictureNodes || e.To > MaxPictureNodes {
		c.skipped++
		return nil
	}
	cp := *e
	if e.VC != nil {
		cp.VC = append([]uint32(nil), e.VC...)
	}
	c.ev = append(c.ev, cp)
	return nil
}

func (c *collector) Summary(s *Summary) error { c.sum = s; return nil }

// header is the log's header, or one made up from the events.
func (c *collector) header() *Header {
	n := 0
	for i := range c.ev {
		n = max(n, c.ev[i].Node, c.ev[i].From, c.ev[i].To)
	}
	if c.h == nil {
		c.h = &Header{V: Version, Kind: KindHeader, Topology: TopoComplete}
		if c.sum != nil {
			c.h.Algorithm, c.h.Runtime, c.h.Seed, c.h.Replay = c.sum.Algorithm, c.sum.Runtime, c.sum.Seed, c.sum.Replay
			c.h.Nodes = c.sum.Nodes
		}
	}
	if c.h.Nodes < n || c.h.Nodes > MaxPictureNodes {
		h := *c.h
		h.Nodes = min(max(h.Nodes, n), MaxPictureNodes)
		c.h = &h
	}
	return c.h
}

// flush draws once, with draw, then flushes the writer.
func (c *collector) flush(draw func() error) error {
	if !c.done {
		c.done = true
		if err := draw(); err != nil {
			return err
		}
	}
	return c.w.Flush()
}

// message is one message of a run: its send, and its delivery or loss.
type message struct {
	from, to         int
	send, recv, drop int // event indices, -1 if none
	dup              bool
	label            string
}

// messages pairs every recv and drop with the send it delivers or loses
// (the oldest unmatched send of the same message on the same link), and
// gives each event the index of its message in byEvent (-1: none).
func messages(ev []Event) (ms []message, byEvent []int) {
	byEvent = make([]int, len(ev))
	pending := map[string][]int{}
	key := func(e *Event) string {
		f := "{}"
		if e.Msg != nil {
			f = e.Msg.Type() + string(e.Msg.Fields())
		}
		return fmt.Sprintf("%d>%d %s", e.From, e.To, f)
	}
	pop := func(k string) int {
		q := pending[k]
		if len(q) == 0 {
			return -1
		}
		pending[k] = q[1:]
		return q[0]
	}
	for i := range ev {
		e := &ev[i]
		byEvent[i] = -1
		switch e.Kind {
		case KindSend, KindDup:
			ms = append(ms, message{from: e.From, to: e.To, send: i, recv: -1, drop: -1, dup: e.Kind == KindDup, label: Short(e.Msg)})
			if e.Kind == KindDup {
				ms[len(ms)-1].send = -1
				for j := len(ms) - 2; j >= 0; j-- { // the copy leaves with the original
					if ms[j].from == e.From && ms[j].to == e.To && ms[j].label == ms[len(ms)-1].label && ms[j].send >= 0 {
						ms[len(ms)-1].send = ms[j].send
						break
					}
				}
			}
			k := key(e)
			pending[k] = append(pending[k], len(ms)-1)
			byEvent[i] = len(ms) - 1
		case KindRecv, KindDrop:
			m := pop(key(e))
			if m < 0 {
				ms = append(ms, message{from: e.From, to: e.To, send: -1, recv: -1, drop: -1, label: Short(e.Msg)})
				m = len(ms) - 1
			}
			if e.Kind == KindRecv {
				ms[m].recv = i
			} else {
				ms[m].drop = i
			}
			byEvent[i] = m
		}
	}
	return ms, byEvent
}

// hostClocks gives every event at a node a vector clock by the textbook
// rules, counting every event at a node as one step of that node: its own
// entry goes 1, 2, 3, ... and a recv first takes the maximum with its
// send's clock. A recv whose send is not in the log only ticks. Events of
// no node (index out of 1..n) are skipped. each sees every clock in
// turn (c is reused: copy what must be kept); only the clocks of sends
// are kept, for their receives.
func hostClocks(ev []Event, ms []message, byEvent []int, n int, each func(i int, c []uint32) error) error {
	cur := make([][]uint32, n+1)
	sent := map[int][]uint32{} // send event -> its clock, until its receive
	for i := range ev {
		e := &ev[i]
		if e.Node < 1 || e.Node > n {
			continue
		}
		if cur[e.Node] == nil {
			cur[e.Node] = make([]uint32, n)
		}
		c := cur[e.Node]
		if e.Kind == KindRecv && byEvent[i] >= 0 {
			if sc, ok := sent[ms[byEvent[i]].send]; ok {
				for k, v := range sc {
					c[k] = max(c[k], v)
				}
			}
		}
		c[e.Node-1]++
		if e.Kind == KindSend {
			sent[i] = append([]uint32(nil), c...)
		}
		if err := each(i, c); err != nil {
			return err
		}
	}
	return nil
}

// csIntervals lists each node's critical sections as event index pairs
// (an exit of -1: still inside at the end; a crash inside ends it).
type csInterval struct{ node, enter, exit int }

func csIntervals(ev []Event) []csInterval {
	var out []csInterval
	open := map[int]int{}
	for i := range ev {
		e := &ev[i]
		switch e.Kind {
		case KindEnterCS:
			open[e.Node] = len(out)
			out = append(out, csInterval{node: e.Node, enter: i, exit: -1})
		case KindExitCS, KindCrash:
			if k, ok := open[e.Node]; ok {
				out[k].exit = i
				delete(open, e.Node)
			}
		}
	}
	return out
}
