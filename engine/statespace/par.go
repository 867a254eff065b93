package statespace

import (
	"hash/maphash"
	"ringlab/engine/statespace/internal/store"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// The parallel search (Config.Workers > 1) keeps the one-worker search's
// result exactly: the same verdict, the same counts and the same shortest
// path. Its workers compute ahead, level by level, what costs most and
// depends on nothing the search changes: each state's decoding, its
// enabled transitions, its successors (the node steps, the clock shift)
// and their keys and fingerprints. One goroutine, the committer, then
// takes the level's states in their queue order and does the rest as the
// one-worker search does: the ample-set choice and its proviso (guess.go:
// the workers step the candidates it will try), the sleep sets, the
// visited set, the records, the next level's queue. So a tie between
// equally short paths is broken as with one worker: the state reached
// first in queue order (the lowest parent in the level, then the lowest
// transition in enabled order) keeps its record and path. A successor the
// workers did not compute (a re-expansion, a step that failed, a
// transition woken after the state was queued, one of an ample set the
// proviso refused) the committer steps itself. While its next batch is not
// ready, the committer computes batches too (help.go): N workers are N-1
// goroutines and the committer.

// batchLen is the states of a level a worker takes at a time (a
// multiple of markEvery).
const batchLen = 128

// slotsPer is the slots (recycle.go) a search has for each of its w
// goroutines computing: slotsPer*w bounds the batches computed and not
// yet committed, and what they hold (their states, successors and keys,
// and the buffers each slot keeps for the next batch), whatever the
// search's size. Each goroutine can so be a few batches ahead of the
// committer. 64 slots for two goroutines held much of the live heap
// (heap profiles at 3 million states of the search below: 47 MB live
// with 64 slots, 29 MB with 8, 13 MB on one worker), which counts up
// to twice in peak RSS (the collector lets the heap grow by what is
// live): at 10 million states of ricart-agrawala --nodes 4 --requests
// 1 --workers 2, peak RSS 286,224 KB with 64 slots, 254,952 KB with 8
// (--por=false), 383,316 KB and 356,264 KB with the reduction; on TLC's
// configuration (lamport --nodes 3 --clock requests --requests 0
// --max-clock 6 --workers 2, three interleaved runs, shared machine)
// 126 MB and 2.40 s of CPU against 108 MB and 2.16 s (--por=false), 119
// MB and 1.71 s against 107 MB and 1.73 s (with the reduction).
const slotsPer = 4

// noCands is an empty pre.cands: no candidate left to try.
var noCands = []uint64{}

// span locates a successor's key in a batch's buffer.
type span struct{ p, k, off, n int }

// pre is what a worker computed for one state of the level.
type pre struct {
	es   *state
	ts   []Trans // nil: not computed
	memo []succ
	// cands, where not nil, is the candidate ample sets the committer is
	// to try (guess.go): those before them are refused whatever it finds.
	cands []uint64
}

// succ is a successor computed ahead of the expansion.
type succ struct {
	t    Trans
	s    *state
	viol *Violation
	vis  bool
	// key and fp, when key is set, are the key and fingerprint of s,
	// computed by a worker of a parallel search.
	key []byte
	fp  uint64
}

// slot holds what one batch computed, from its fill to its commit: its
// entries read back, and per state what was computed (the successors
// with their keys in buf). A slot goes from a worker to the committer
// and back; a worker takes one before it takes a batch.
type slot struct {
	raw   []byte
	ents  []store.Entry
	pres  []pre
	ts    []Trans
	buf   []byte
	all   []succ
	spans []span
	cands []uint64 // scratch of guessAmple
	cbuf  []uint64 // the states' pre.cands
	arena arena    // the batch's states (slotarena.go)
	err   error    // reading the entries back
}

type batch struct {
	lo, hi int
	sl     *slot
	ready  chan struct{}
}

// workers are the goroutines of one parallel search, each with its own
// machine over the search's interner (made safe to share).
type workers struct {
	ms []*machine
	// sets is the search's sleep sets as the level began: every
	// entry's sleep set number is in it.
	sets store.SeqsView[Trans]
	// free holds the slots not in use (recycle.go).
	free chan *slot
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

// startWorkers makes the interner shared, and builds over it the
// machines of the goroutines that help the committer compute (w in all
// with it when it helps) and the slots.
func (s *searcher) startWorkers(w int) error {
	s.m.in.mu = new(sync.RWMutex)
	s.par = &workers{free: make(chan *slot, slotsPer*w)}
	for range slotsPer * w {
		s.par.free <- newSlot()
	}
	for range w - helping {
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
	n := s.level.Len()
	// a small level in small batches, still shared by the goroutines
	// computing (g)
	g := len(s.par.ms) + helping
	size := store.MarkEvery * max(1, min(batchLen, n/(8*g))/store.MarkEvery)
	nb := (n + size - 1) / size
	bs := make([]batch, nb)
	for b := range bs {
		bs[b] = batch{lo: b * size, hi: min(n, (b+1)*size), ready: make(chan struct{})}
	}
	// A worker does not step a transition asleep when the state was
	// queued. A revisit since may have woken it; the committer then steps
	// it itself.
	if s.cfg.POR {
		s.par.sets = s.sleeps.View()
	}
	var next atomic.Int64
	// claim computes, with machine m and slot sl, the next batch no one
	// took; it reports false (and lets sl go) when none is left.
	claim := func(m *machine, sl *slot) bool {
		b := int(next.Add(1)) - 1
		if b >= nb {
			s.par.free <- sl
			return false
		}
		bs[b].sl = sl
		s.fill(m, &bs[b])
		close(bs[b].ready)
		return true
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	for _, m := range s.par.ms {
		wg.Go(func() {
			for {
				// A slot first, then a batch: the batches held are then
				// always the lowest uncommitted ones, so the committer's
				// next batch is always being computed.
				select {
				case sl := <-s.par.free:
					if !claim(m, sl) {
						return
					}
				case <-quit:
					return
				}
			}
		})
	}
	stop := sync.OnceFunc(func() {
		close(quit)
		wg.Wait()
	})
	defer stop()
	for b := range bs {
		s.await(&bs[b], claim)
		sl := bs[b].sl
		if sl.err != nil {
			return sl.err
		}
		if err := s.commit(sl); err != nil || s.stopped {
			return err
		}
		bs[b].sl = nil
		s.par.free <- s.recycled(sl)
	}
	stop()
	return s.endLevel()
}

// commit does, in queue order, what is left of the expansion of the
// states of slot sl. The states the committer steps itself live in the
// search's arena while it expands one (as on one worker, expandLevel);
// it uses its machine's arena only here, since it lends its machine to
// a batch's slot while it helps (await).
func (s *searcher) commit(sl *slot) error {
	if slotArenas && arenaFits(s.cfg) {
		s.m.arena = &s.arena
		defer func() { s.m.arena = nil }()
	}
	for i := range sl.ents {
		if s.outOfBudget() {
			s.stopped = true
			return nil
		}
		if err := s.expandPre(&sl.ents[i], &sl.pres[i]); err != nil || s.stopped {
			return err
		}
		s.arena.reset()
	}
	return nil
}

// fill computes, with machine m, what the committer needs of the states
// of batch b, into its slot: for a first expansion, its enabled
// transitions and the successors by every one of them not asleep when it
// was queued, with their keys and fingerprints. Those an ample set leaves
// out are computed for nothing; guessing them here would leave more to
// the committer, the one goroutine every state passes through.
func (s *searcher) fill(m *machine, b *batch) {
	sl := b.sl
	raw, err := s.level.Read(b.lo, b.hi, sl.raw)
	sl.raw = raw
	if err != nil {
		sl.err = err
		return
	}
	sl.ents = store.ParseEntries(raw, sl.ents[:0])
	if slotArenas && recycle {
		m.arena = &sl.arena
		defer func() { m.arena = nil }()
	}
	sl.pres = slices.Grow(sl.pres[:0], b.hi-b.lo)[:b.hi-b.lo]
	ts, buf, all, spans, cbuf := sl.ts[:0], sl.buf[:0], sl.all[:0], sl.spans[:0], sl.cbuf[:0]
	for qi := b.lo; qi < b.hi; qi++ {
		e := &sl.ents[qi-b.lo]
		p := &sl.pres[qi-b.lo]
		*p = pre{es: m.decode(e.Key)}
		if e.Only >= 0 {
			continue // a re-expansion: the committer steps it
		}
		t0 := len(ts)
		ts = m.enabled(p.es, ts)
		p.ts = ts[t0:len(ts):len(ts)]
		if p.ts == nil {
			p.ts = []Trans{}
		}
		var asleep []Trans
		if s.cfg.POR {
			asleep = s.par.sets.At(e.Sleep)
		}
		start := len(all)
		// take returns the successor by t, stepped now unless it was
		// before, or nil on an error (the committer steps it again and
		// reports it in order).
		take := func(t Trans) *succ {
			for i := start; i < len(all); i++ {
				if all[i].t == t {
					return &all[i]
				}
			}
			m.now = int64(e.Depth)
			next, viol, err := m.step(p.es, t)
			if err != nil {
				return nil
			}
			if m.shifting {
				next = m.shift(next)
				if m.broken != "" {
					m.broken = ""
					return nil // the committer steps it again and reports it
				}
			}
			off := len(buf)
			buf = next.appendKey(buf, m.in)
			spans = append(spans, span{qi - b.lo, len(all) - start, off, len(buf) - off})
			all = append(all, succ{t: t, s: next, viol: viol, vis: m.vis, fp: s.fingerprintOf(buf[off:])})
			return &all[len(all)-1]
		}
		full, ok := true, true
		if s.cfg.POR && !s.cfg.sleepOnly {
			full, ok = guessAmple(m, p, &sl.cands, take)
			if !ok {
				p.cands = nil
			} else if p.cands != nil {
				c0 := len(cbuf)
				cbuf = append(cbuf, p.cands...)
				p.cands = cbuf[c0:len(cbuf):len(cbuf)]
				if len(p.cands) == 0 {
					p.cands = noCands
				}
			}
		}
		for _, t := range p.ts {
			if !full || !ok {
				break
			}
			if !containsT(asleep, t) {
				ok = take(t) != nil
			}
		}
		p.memo = all[start:len(all):len(all)]
	}
	sl.ts, sl.buf, sl.all, sl.spans, sl.cbuf = ts, buf, all, spans, cbuf
	for _, sp := range spans {
		c := &sl.pres[sp.p].memo[sp.k]
		c.key = buf[sp.off : sp.off+sp.n : sp.off+sp.n]
	}
}

// fingerprintOf is k's fingerprint (0 with Config.Exact, which keeps
// whole keys).
func (s *searcher) fingerprintOf(k []byte) uint64 {
	if s.cfg.Exact {
		return 0
	}
	return maphash.Bytes(s.seed, k)
}
