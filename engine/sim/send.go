package sim

import (
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// send puts one message on the network, applying the fault model.
func (s *sim) send(from int, snd *node.Send) {
	s.count(snd.Msg.Type())
	ns := &s.nodes[from]
	ns.lc++
	if s.plain {
		// What enqueue would do with no faults, a fixed latency and FIFO
		// for free: no random draw, so the run is the same.
		s.flight++
		e := s.q.pushNear(s.q.now + s.cfg.Delay.Min)
		e.msg, e.lc, e.aux, e.from, e.to = snd.Msg, ns.lc, 0, int32(from), int32(snd.To)
		return
	}
	var it slot // filled field by field: a literal would be built aside and block-copied (see queue.add)
	it.msg, it.lc, it.from, it.to = snd.Msg, ns.lc, int32(from), int32(snd.To)
	if s.vc != nil {
		s.vc[from][from-1]++
		s.vcs = append(s.vcs, append([]uint32(nil), s.vc[from]...))
		it.aux = int64(len(s.vcs) - 1)
	}
	if s.msgEvents {
		s.emitMsg(trace.KindSend, from, &it, "")
	}

	f := &s.cfg.Faults
	if f.Drop > 0 && s.chance(f.Drop) {
		s.dropped(&it, "lost by the network")
		return
	}
	if len(f.Partitions) > 0 && s.partitioned(from, snd.To) {
		s.dropped(&it, "partitioned")
		return
	}
	s.enqueue(&it)
	if f.Dup > 0 && s.chance(f.Dup) {
		if s.msgEvents {
			s.emitMsg(trace.KindDup, from, &it, "")
		}
		s.res.Duplicated++
		s.enqueue(&it)
	}
}

func (s *sim) dropped(it *slot, why string) {
	if s.msgEvents {
		s.emitMsg(trace.KindDrop, int(it.from), it, why)
	}
	s.res.Dropped++
}

// enqueue schedules a message's delivery after its latency.
func (s *sim) enqueue(it *slot) {
	d := s.cfg.Delay.Min
	if s.cfg.Delay.Max > d {
		d += s.choose(s.cfg.Delay.Max - d + 1)
	}
	now := s.q.now
	for _, sl := range s.cfg.Faults.Slow { // usually none
		if int(it.to) == sl.Node && now >= sl.From && (sl.Until == 0 || now < sl.Until) {
			d += sl.Extra
		}
	}
	at := now + d
	if s.link != nil {
		key := uint64(it.from)<<32 | uint64(it.to)
		if last := s.link[key]; at < last {
			at = last // FIFO: never overtake an earlier message on this link
		}
		s.link[key] = at
	}
	s.flight++
	s.q.push(at, it)
}

func (s *sim) partitioned(a, b int) bool {
	now := s.q.now
	for _, p := range s.cfg.Faults.Partitions {
		if now < p.From || (p.Until != 0 && now >= p.Until) {
			continue
		}
		if in(p.Group, a) != in(p.Group, b) {
			return true
		}
	}
	return false
}

func in(group []int, i int) bool {
	for _, g := range group {
		if g == i {
			return true
		}
	}
	return false
}

// count counts a message of type typ. A run sends few types, mostly in
// runs of one, so the last type's index is kept to skip the map: result.
// Messages is the counts' sum (see run).
func (s *sim) count(typ string) {
	if typ != s.lastType || s.lastIdx < 0 {
		s.lastIdx = s.typeIndex(typ)
	}
	s.typeCounts[s.lastIdx]++
}

// typeIndex returns the index of typ in typeCounts, adding it if new, and
// makes typ the last type counted.
func (s *sim) typeIndex(typ string) int {
	s.lastType = typ
	k, ok := s.typeIdx[typ]
	if !ok {
		k = len(s.typeCounts)
		s.typeIdx[typ] = k
		s.typeNames = append(s.typeNames, typ)
		s.typeCounts = append(s.typeCounts, 0)
	}
	return k
}

func (s *sim) setTimer(i int, t node.Timer) {
	if s.timers == nil {
		s.timers = make([][]timerSlot, s.cfg.Nodes+1)
	}
	slots := s.timers[i]
	k := -1
	for j := range slots {
		if slots[j].id == t.ID {
			k = j
			break
		}
	}
	if k < 0 {
		s.timers[i] = append(slots, timerSlot{id: t.ID})
		k = len(s.timers[i]) - 1
	}
	s.timers[i][k].gen++ // any pending firing of the old generation is void
	if t.After >= 0 {
		s.q.push(s.q.now+t.After, &slot{from: slotTimer, to: int32(i), aux: timerAux(t.ID, s.timers[i][k].gen)})
	}
}

func (s *sim) timerCurrent(i, id int, gen uint32) bool {
	if s.timers == nil {
		return false
	}
	for _, sl := range s.timers[i] {
		if sl.id == id {
			return sl.gen == gen
		}
	}
	return false
}

func (s *sim) tickClock(i int) {
	s.nodes[i].lc++
	if s.vc != nil {
		s.vc[i][i-1]++
	}
}

// fill prepares the reused event for kind at node i.
func (s *sim) fill(kind string, i int) {
	s.evSeq++
	// Field by field, every field: a literal would be built aside and
	// block-copied in, twice the stores, for millions of events a run.
	e := &s.ev
	e.V, e.Seq, e.T, e.Node, e.Kind = trace.Version, s.evSeq, s.q.now, i, kind
	e.From, e.To, e.Msg, e.Cmd, e.Arg, e.State, e.Leader = 0, 0, nil, "", 0, "", nil
	e.Round, e.Note, e.Property, e.Detail, e.LC, e.VC = 0, "", "", "", s.nodes[i].lc, nil
	if s.vc != nil {
		e.VC = s.vc[i]
	}
}

func (s *sim) emit(kind string, i int) {
	if s.cfg.Sink == nil || s.cfg.Skip.Has(kind) {
		return
	}
	s.fill(kind, i)
	s.cfg.Sink(&s.ev)
}

// emitMsg reports a message event; callers check s.msgEvents first.
func (s *sim) emitMsg(kind string, at int, it *slot, note string) {
	if s.cfg.Skip.Has(kind) {
		return
	}
	s.fill(kind, at)
	s.ev.From, s.ev.To, s.ev.Msg, s.ev.Note = int(it.from), int(it.to), trace.WrapMsg(it.msg), note
	s.cfg.Sink(&s.ev)
}

func (s *sim) emitNode(i int, ev node.Event) {
	if s.cfg.Sink == nil || s.cfg.Skip.HasNode(ev.Kind) {
		return
	}
	s.fill(trace.NodeKind(ev.Kind), i)
	switch ev.Kind {
	case node.EvState:
		s.ev.State = ev.State
	case node.EvLeader:
		s.ev.Leader, s.ev.Round = s.leader(ev.Leader), ev.Round
	}
	s.ev.Note = ev.Note
	s.cfg.Sink(&s.ev)
}

// choose returns a decision in [0, n): drawn from the seed, or replayed.
func (s *sim) choose(n int64) int64 {
	var v int64
	if s.cfg.Choices != nil {
		if s.nChoice < len(s.cfg.Choices) {
			v = min(max(s.cfg.Choices[s.nChoice], 0), n-1)
		}
		s.nChoice++
	} else {
		v = s.rng.Int64N(n)
	}
	if s.cfg.RecordChoices {
		s.res.Choices = append(s.res.Choices, v)
	}
	return v
}

// chance returns true with probability p: drawn from the seed, or replayed
// (a replayed 1 means yes).
func (s *sim) chance(p float64) bool {
	var yes bool
	if s.cfg.Choices != nil {
		yes = s.nChoice < len(s.cfg.Choices) && s.cfg.Choices[s.nChoice] != 0
		s.nChoice++
	} else {
		yes = s.rng.Float64() < p
	}
	if s.cfg.RecordChoices {
		v := int64(0)
		if yes {
			v = 1
		}
		s.res.Choices = append(s.res.Choices, v)
	}
	return yes
}

// leader returns a pointer to a fresh int holding l, for a leader event.
// Each event gets its own (a sink may keep a copy of the event), but they
// are carved from shared blocks rather than allocated one by one.
func (s *sim) leader(l int) *int {
	if len(s.leaders) == 0 {
		s.leaders = make([]int, 256)
	}
	p := &s.leaders[0]
	s.leaders = s.leaders[1:]
	*p = l
	return p
}
