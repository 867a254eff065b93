package sim

import "ringlab/engine/node"

// The simulator's fast path: a run of plain messages (see sim.plain)
// delivered straight from the head chunk of the current tick's bucket,
// without a pop per message. It is the workload of a big election: a
// million nodes forwarding ids round a ring.
//
// Measured gain (user CPU of the million-node Chang-Roberts, every node
// starting, 6 runs each interleaved on 2 cores): 0.49 s with the fast path,
// 0.61 s without it, 25% more. Measure it with
//
//	RINGLAB_BIG=1 go test -run '^$' -bench 'Election/impl=sim.*/nodes=1000000' -benchtime 1x -count 6 ./election/changroberts
//
// (impl=sim-unoptimized turns this and prefetch.go off: config.Unoptimized).
// TestFastPathIsThePlainPath checks that it delivers exactly what
// deliver would, run after run. Removing it is one edit: set batch to
// false in newSim.

// deliverRun delivers the message it, just popped, then the messages after
// it in the head chunk of its tick's bucket, in order, until an item that is
// not a message, the end of the chunk, the end of the run (all done, no
// message in flight) or the step budget: what loop and deliver would do,
// minus a pop and its checks per message. It is for batch runs only (plain,
// and no Stop to ask after every step).
//
// Every message sent meanwhile goes to a later tick's bucket (latencies are
// at least 1 tick and less than the wheel's span), and a timer or action due
// now is appended to this bucket after its messages, so the chunk's items
// are read in (at, seq) order still; only its end may move.
func (s *sim) deliverRun(it *slot) error {
	q := s.q
	bk := &q.buckets[q.now&q.mask]
	c := bk.head                                      // it is c.slots[bk.r-1] (see pop)
	dst := &q.buckets[(q.now+s.cfg.Delay.Min)&q.mask] // where a message sent now goes
	o := &s.out
	end := bk.headEnd()
	for {
		s.flight--
		if s.prefetching && bk.r+ahead < end {
			s.prefetchSlot(&c.slots[bk.r+ahead])
		}
		ns := &s.nodes[it.to]
		if ns.crashed {
			s.res.Dropped++ // no event: a plain run has no message events
		} else {
			ns.lc = max(ns.lc, it.lc) + 1
			s.res.Steps++
			o.Reset()
			o.Now = q.now
			ns.nd.Step(node.Input{Kind: node.InMsg, From: int(it.from), Msg: it.msg}, o)
			if len(o.Sends) == 1 && len(o.Events) == 0 && len(o.Timers) == 0 && uint(o.Sends[0].To-1) < uint(s.cfg.Nodes) {
				// The commonest step of all, one message out and nothing
				// else (a ring passing a token on): carryOut and send,
				// minus their loops and calls.
				snd := &o.Sends[0]
				s.count(snd.Msg.Type())
				ns.lc++
				s.flight++
				q.seq++
				e := q.slotIn(dst)
				e.msg, e.lc, e.aux, e.from, e.to = snd.Msg, ns.lc, 0, it.to, int32(snd.To)
				if o.Done != ns.done {
					s.setDone(ns, o.Done)
				}
			} else if err := s.carryOut(int(it.to)); err != nil {
				return err
			}
		}
		it.msg = nil // handled: drop the reference for the GC (pop does it for the last one)
		if s.flight == 0 && s.nDone == s.nLive || s.res.Steps >= s.cfg.MaxSteps {
			return nil // loop ends the run
		}
		end = bk.headEnd() // a step may have added a timer or an action due now
		if bk.r == end || c.slots[bk.r].from <= 0 {
			return nil // loop takes it from here: pop moves to the next chunk, or tick
		}
		it = &c.slots[bk.r]
		bk.r++
		q.inWheel--
		q.last = it
	}
}
