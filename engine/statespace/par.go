package statespace

import (
	"hash/maphash"
	"runtime"
	"sync"
	"sync/atomic"
)

// The parallel search (Config.Workers > 1) keeps the one-worker search's
// result exactly: the same verdict, the same counts and the same shortest
// path. Its workers compute ahead, level by level, what costs most and
// depends on nothing the search changes: each state's decoding, its
// enabled transitions, its successors (the node steps, the clock shift)
// and their keys and fingerprints. One goroutine, the committer, then
// takes the level's states in their queue order and does all the rest as
// the one-worker search does: the ample-set choice and its proviso, the
// sleep sets, the visited set, the records, the next level's queue. So a
// tie between equally short paths is broken as with one worker: the
// state reached first in queue order (the lowest parent in the level,
// then the lowest transition in enabled order) keeps its record and path.
// A successor the workers did not compute (a re-expansion, a step that
// failed) the committer steps itself.

// batchLen is the states of a level a worker takes at a time (a
// multiple of markEvery).
const batchLen = 128

// ahead bounds the batches computed and not yet committed (memory).
const ahead = 64

// hint is the sizes a worker's last batches needed, to allocate the next
// one's at once.
type hint struct{ buf, succs int }

// span locates a successor's key in a batch's buffer.
type span struct{ p, k, off, n int }

// pre is what a worker computed for one state of the level.
type pre struct {
	es   *state
	ts   []Trans // nil: not computed
	memo []succ
}

type batch struct {
	lo, hi int
	ents   []entry // the level's entries lo to hi, read back by the worker
	pres   []pre
	err    error // reading them back
	ready  chan struct{}
}

// workers are the goroutines of one parallel search, each with its own
// machine over the search's interner (made safe to share).
type workers struct {
	ms []*machine
	// sets is the search's sleep sets as the level began (an append-only
	// copy): every entry's sleep set number is in it.
	sets [][]Trans
}

// parallel reports how many workers cfg's search uses: Config.Workers
// (0: every core), and one where the search needs one goroutine (see
// Config.Workers).
func parallel(cfg Config) int {
	if cfg.Liveness || cfg.Goal != nil || cfg.OnStep != nil || cfg.CheckClones || cfg.Symmetry != nil {
		return 1
	}
	if cfg.Workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return cfg.Workers
}

// startWorkers makes the interner shared and builds w machines over it.
func (s *searcher) startWorkers(w int) error {
	s.m.in.mu = new(sync.RWMutex)
	s.par = &workers{}
	for range w {
		m, _, err := newMachine(s.cfg, nil, s.m.in)
		if err != nil {
			return err
		}
		m.shifting, m.loc = s.m.shifting, newLocal()
		s.par.ms = append(s.par.ms, m)
	}
	s.m.loc = newLocal()
	return nil
}

// expandLevelPar is expandLevel with the workers computing ahead.
func (s *searcher) expandLevelPar() error {
	if err := s.beginLevel(); err != nil {
		return err
	}
	n := s.level.n
	size := markEvery * max(1, min(batchLen, n/(8*len(s.par.ms)))/markEvery) // a small level in small batches, still shared
	nb := (n + size - 1) / size
	bs := make([]batch, nb)
	for b := range bs {
		bs[b] = batch{lo: b * size, hi: min(n, (b+1)*size), ready: make(chan struct{})}
	}
	// A worker does not step a transition asleep when the state was
	// queued. A revisit since may have woken it; the committer then steps
	// it itself.
	if s.cfg.POR {
		s.par.sets = s.sleeps.sets
	}
	var next atomic.Int64
	tokens := make(chan struct{}, ahead)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	for _, m := range s.par.ms {
		wg.Go(func() {
			var h hint
			for {
				// A token first, then a batch: the batches held are then
				// always the lowest uncommitted ones, so the committer's
				// next batch is always being computed.
				select {
				case tokens <- struct{}{}:
				case <-quit:
					return
				}
				b := int(next.Add(1)) - 1
				if b >= nb {
					return
				}
				s.fill(m, &bs[b], &h)
				close(bs[b].ready)
			}
		})
	}
	defer func() {
		close(quit)
		wg.Wait()
	}()
	for b := range bs {
		<-bs[b].ready
		if bs[b].err != nil {
			return bs[b].err
		}
		for i := range bs[b].ents {
			if s.outOfBudget() {
				s.stopped = true
				return nil
			}
			if err := s.expandPre(&bs[b].ents[i], &bs[b].pres[i]); err != nil || s.stopped {
				return err
			}
		}
		bs[b].ents, bs[b].pres = nil, nil
		<-tokens
	}
	return s.endLevel()
}

// fill computes, with machine m, what the committer needs of the states
// of batch b: for a first expansion, its enabled transitions and the
// successors by every one of them not asleep when it was queued, with
// their keys and fingerprints. Those an ample set leaves out are computed
// for nothing;
// guessing them here would leave more to the committer, the one goroutine
// every state passes through.
func (s *searcher) fill(m *machine, b *batch, h *hint) {
	raw, err := s.level.read(b.lo, b.hi, nil)
	if err != nil {
		b.err = err
		return
	}
	b.ents = parseEntries(raw, make([]entry, 0, b.hi-b.lo))
	b.pres = make([]pre, b.hi-b.lo)
	buf := make([]byte, 0, h.buf)
	all := make([]succ, 0, h.succs)
	spans := make([]span, 0, h.succs)
	for qi := b.lo; qi < b.hi; qi++ {
		e := &b.ents[qi-b.lo]
		p := &b.pres[qi-b.lo]
		p.es = decode(e.key, m.n)
		if e.only >= 0 {
			continue
		}
		p.ts = m.enabled(p.es, nil)
		var asleep []Trans
		if s.cfg.POR {
			asleep = s.par.sets[e.sleep]
		}
		start := len(all)
		for _, t := range p.ts {
			if containsT(asleep, t) {
				continue
			}
			m.now = int64(e.depth)
			next, viol, err := m.step(p.es, t)
			if err != nil {
				break // the committer steps it again and reports it in order
			}
			if m.shifting {
				next = m.shift(next)
			}
			off := len(buf)
			buf = next.appendKey(buf, m.in)
			spans = append(spans, span{qi - b.lo, len(all) - start, off, len(buf) - off})
			all = append(all, succ{t: t, s: next, viol: viol, vis: m.vis})
		}
		p.memo = all[start:len(all):len(all)]
	}
	h.buf, h.succs = max(h.buf, cap(buf)), max(h.succs, cap(all))
	for _, sp := range spans {
		c := &b.pres[sp.p].memo[sp.k]
		c.key = buf[sp.off : sp.off+sp.n : sp.off+sp.n]
		if !s.cfg.Exact {
			c.fp = maphash.Bytes(s.seed, c.key)
		}
	}
}
