package explore

import "ringlab/engine/trace"

// sends follows the messages a replayed run sends and takes off the
// links, in the order sent: what a state keeps of a link under the
// random policy is a set, the order it was filled in is the run's.
type sends struct {
	open []sent // sent and not yet received or dropped, in the order sent
}

type sent struct {
	from, to int
	text     string
	seq      int64
	used     bool
}

// observe takes one event of the replayed run.
func (s *sends) observe(e *trace.Event) {
	if e.Msg == nil {
		return
	}
	text := trace.Short(e.Msg)
	switch e.Kind {
	case trace.KindSend:
		s.open = append(s.open, sent{from: e.From, to: e.To, text: text, seq: e.Seq})
	case trace.KindRecv, trace.KindDrop:
		for k, m := range s.open {
			if m.from == e.From && m.to == e.To && m.text == text {
				s.open = append(s.open[:k:k], s.open[k+1:]...)
				break
			}
		}
	}
}

// number gives each message in flight the Seq of the send event that
// sent it: the first open send of the same text on its link, else (a
// message whose text the state reduced) the first open send left on
// its link; 0 when none is left.
func (s *sends) number(fs []Flight) {
	take := func(f *Flight, same bool) {
		for k := range s.open {
			m := &s.open[k]
			if !m.used && m.from == f.From && m.to == f.To && (!same || m.text == f.Text) {
				m.used, f.Sent = true, m.seq
				return
			}
		}
	}
	for i := range fs {
		take(&fs[i], true)
	}
	for i := range fs {
		if fs[i].Sent == 0 {
			take(&fs[i], false)
		}
	}
}
