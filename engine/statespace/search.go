package statespace

import (
	"context"
	"hash/maphash"
	"ringlab/engine/statespace/internal/store"
	"runtime"
	"slices"
	"time"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// Search explores cfg's state space breadth first. It stops at the first
// violation (a shortest path to it), at a bound, or when ctx is done.
//
// With the ample sets, the first violation found may lie on a longer path
// than the shortest one (the reduction postpones a node's invisible steps
// only in some orders), so Search then looks for the shortest one again
// with sleep sets only, no deeper than the path it found.
func Search(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Liveness {
		cfg.POR = false // the ample sets' proviso is for safety only
	}
	if cfg.Symmetry != nil {
		if err := symmetryConfig(&cfg); err != nil {
			return Result{}, err
		}
	}
	res, err := search(ctx, cfg)
	res.AtEnds = atEnds(cfg)
	if err != nil || res.Violation == nil || !cfg.POR || cfg.sleepOnly || res.Reduced == 0 {
		return res, err
	}
	full := cfg
	full.sleepOnly, full.MaxDepth = true, len(res.Path)
	if cfg.Timeout > 0 {
		full.Timeout = max(cfg.Timeout-res.Elapsed, time.Millisecond)
	}
	short, err := search(ctx, full)
	if err != nil {
		return res, err
	}
	res.Elapsed += short.Elapsed
	res.ShortestStates = short.Distinct
	if short.Violation != nil {
		res.Violation, res.Path = short.Violation, short.Path
	}
	return res, nil
}

// searcher is one breadth-first search. search runs its phases in order:
// begin (the initial state), then level by level, expand each state of the
// level (pickAmple chooses the transitions to take, successor takes each,
// revisit wakes the sleep set of a state seen before, discover records a
// new one, judging it), and end with the figures.
type searcher struct {
	ctx      context.Context
	cfg      Config
	m        *machine
	res      Result
	start    time.Time
	deadline time.Time
	// The visited set: 64-bit fingerprints, or with cfg.Exact whole keys;
	// each maps to its record in recs (with the reduction or liveness:
	// the one-worker search without either never asks).
	seed   maphash.Seed
	fp     *store.FPSet
	full   map[string]int32
	recs   store.Records[Trans]
	sleeps *store.Seqs[Trans]
	key    []byte // scratch: the key of the state last looked up
	// The BFS levels: the one being expanded and the next.
	level, next *store.Queue
	ents        []store.Entry // scratch: entries read back
	qbuf        []byte        // scratch: their bytes
	bounded     bool          // a state was left unexpanded at cfg.MaxDepth
	ordered     bool          // a check.OrderDependent property is carried (history.go)
	stopped     bool          // a violation or a bound ended the search: res says which
	// memo holds the successors pickAmple computed while trying ample
	// sets, so that the expansion does not step them again.
	memo              []succ
	cands             []uint64
	ts                []Trans
	slb, wakeb, keepb []Trans     // scratch
	doneb             []Trans     // scratch: expandPre's transitions taken
	lv                *livegraph  // the graph kept for liveness (Config.Liveness), else nil
	cg                *cycleGraph // the graph kept to count its cycles (Config.Cycles), else nil
	par               *workers    // the workers of a parallel search (par.go), else nil
	handed            []uint64    // the candidate ample sets a worker left to try (guess.go), else nil
	nextReport        time.Time   // when Config.Progress is next due
	levelStart        int64       // res.Explored when the current level began
	headroom          func()      // lets go of the GC headroom (store.HoldHeadroom) once it is held
	headroomN         int64       // its size
	// sym canonicalises states under Config.Symmetry (else nil); x0 is
	// the concrete initial state, c0 its representative, pi0 the
	// permutation from one to the other.
	sym    *symm
	x0, c0 *state
	pi0    []int
	// arena holds the states of the one-worker search's expansion of
	// one state (slotarena.go).
	arena arena
}

func search(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Goal != nil {
		cfg.POR = false // a goal may read any node's state: every interleaving counts
	}
	s := &searcher{ctx: ctx, cfg: cfg, start: time.Now(), seed: maphash.MakeSeed(),
		full: map[string]int32{}, sleeps: store.NewSeqs(hashTrans), recs: store.NewRecords[Trans](cfg.POR, cfg.SpillDir, cfg.linkMem)}
	if !cfg.Exact {
		s.fp = store.NewFPSet(cfg.POR || cfg.Liveness || cfg.Cycles)
	}
	s.level, s.next = s.newQueue(), s.newQueue()
	defer s.release()
	if cfg.Liveness {
		s.lv = newLivegraph(cfg.Nodes)
	} else if cfg.Cycles {
		s.cg = &cycleGraph{}
	}
	if cfg.Timeout > 0 {
		s.deadline = s.start.Add(cfg.Timeout)
	}
	s0, err := s.begin()
	if err != nil {
		return s.res, err
	}
	if s0 {
		return s.end()
	}
	s.res.Workers = parallel(cfg)
	if s.res.Workers > 1 {
		if err := s.startWorkers(s.res.Workers); err != nil {
			return s.res, err
		}
	}
	s.nextReport = s.start.Add(time.Second)
	for s.level.Len() > 0 {
		s.levelStart = s.res.Explored
		if n := store.HeadroomFor(s.res.Distinct); n > s.headroomN {
			s.letHeadroomGo()
			s.headroom, s.headroomN = store.HoldHeadroom(n), n
		}
		var err error
		if s.par != nil {
			err = s.expandLevelPar()
		} else {
			err = s.expandLevel()
		}
		if err != nil {
			return s.res, err
		}
		if !s.stopped {
			s.res.Covered++
		}
		if s.stopped {
			return s.end()
		}
	}
	if s.bounded {
		s.res.Stop = "max-depth"
	} else {
		s.res.Exhausted = true
		if s.lv != nil {
			s.res.Lasso, s.res.Live = s.judgeLive()
			if l := s.res.Lasso; l != nil {
				if _, err := ReplayLasso(s.cfg, l.Prefix, l.Cycle, nil); err != nil {
					res, _ := s.end()
					return res, contract(s.cfg, "the lasso %s|%s the search found does not replay from the initial state: %v", FormatPath(l.Prefix), FormatPath(l.Cycle), err)
				}
			}
		}
		if s.cg != nil && s.res.Back > 0 { // with no step back, no cycle
			s.res.Cyclic = s.cg.Count(s.recs.Len())
		}
	}
	return s.end()
}

// begin builds the machine and records the initial state, judged at once
// if it is terminal; it reports whether that ended the search.
func (s *searcher) begin() (bool, error) {
	m, s0, err := newMachine(s.cfg, nil, nil)
	if err != nil {
		return false, err
	}
	s.m = m
	s.ordered = m.ordered()
	if m.shifting = shiftable(s.cfg); m.shifting {
		s0 = m.shift(s0)
	}
	if s.cfg.Symmetry != nil {
		if s.sym, err = newSymm(m, s0, s.cfg.Symmetry); err != nil {
			return false, err
		}
		s.x0 = s0
		if s.c0, s.pi0, err = s.sym.canon(s0); err != nil {
			return false, err
		}
		s0 = s.c0
	}
	_, _, k0 := s.lookup(s0)
	s.insert(k0, -1, Trans{}, 0, 0)
	s.lv.State(m.owed(s0))
	s.res.Distinct = 1
	if m.staged != nil {
		s.res.Violation = m.staged
		return true, nil
	}
	if s.cfg.Goal != nil && m.goal(s0) {
		s.res.Goal = true
		return true, nil
	}
	if m.terminal(s0) {
		v, err := s.judge(0)
		if err != nil || v != nil {
			s.res.Violation = v
			return true, err
		}
	}
	s.level.Push(store.Entry{Key: k0, Only: -1})
	return false, nil
}

// end fills in the figures of the finished search, and reports an I/O
// error of its parent links (a path read back from them would be wrong).
func (s *searcher) end() (Result, error) {
	s.res.Elapsed = time.Since(s.start)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s.res.MemBytes = ms.Sys + store.Mapped()
	s.res.Spilled += s.level.Spilled + s.next.Spilled
	return s.res, s.recs.Err()
}

// newQueue is an empty level.
func (s *searcher) newQueue() *store.Queue {
	at := s.cfg.spillAt
	if at == 0 {
		at = store.SpillAt
	}
	return store.NewQueue(s.cfg.SpillDir, at)
}

// release gives back what the search holds outside the Go heap: its
// tables and its levels' files.
func (s *searcher) release() {
	if searched != nil {
		searched(s)
	}
	s.letHeadroomGo()
	s.level.Close()
	s.next.Close()
	s.recs.Free()
	s.sleeps.Free()
	if s.fp != nil {
		s.fp.Free()
	}
}

// soloBatch is the entries of a level the one-worker search reads back
// at a time (a multiple of markEvery).
const soloBatch = 1024

// expandLevel expands every state of the current level, then makes the
// next level current.
func (s *searcher) expandLevel() error {
	if err := s.beginLevel(); err != nil {
		return err
	}
	if slotArenas && arenaFits(s.cfg) {
		s.m.arena = &s.arena
		defer func() { s.m.arena = nil }()
	}
	for lo := 0; lo < s.level.Len(); lo += soloBatch {
		b, err := s.level.Read(lo, min(s.level.Len(), lo+soloBatch), s.qbuf)
		if err != nil {
			return err
		}
		s.qbuf, s.ents = b, store.ParseEntries(b, s.ents[:0])
		for i := range s.ents {
			if s.outOfBudget() {
				s.stopped = true
				return nil
			}
			if err := s.expand(&s.ents[i]); err != nil || s.stopped {
				return err
			}
			s.arena.reset()
		}
	}
	return s.endLevel()
}

// beginLevel makes the current level readable; the states found from
// now on are one deeper.
func (s *searcher) beginLevel() error {
	s.recs.Level()
	return s.level.Finish()
}

// endLevel makes the next level current.
func (s *searcher) endLevel() error {
	if s.next.Err() != nil {
		return s.next.Err()
	}
	s.res.Spilled += s.level.Spilled
	s.level.Close()
	s.level, s.next = s.next, s.newQueue()
	return nil
}

// outOfBudget checks, every 256 states, the context, the deadline and
// (every 16384) the memory bound, and says in res.Stop which ran out.
func (s *searcher) outOfBudget() bool {
	if s.res.Explored&255 != 0 {
		return false
	}
	switch {
	case s.ctx.Err() != nil:
		s.res.Stop = "interrupted"
	case !s.deadline.IsZero() && time.Now().After(s.deadline):
		s.res.Stop = "timeout"
	case s.cfg.MaxMemory > 0 && s.res.Explored&(1<<14-1) == 0 && memBytes() > s.cfg.MaxMemory:
		s.res.Stop = "max-memory"
	default:
		if s.cfg.Progress != nil {
			s.progress()
		}
		return false
	}
	return true
}

// progress calls Config.Progress once a second.
func (s *searcher) progress() {
	now := time.Now()
	if now.Before(s.nextReport) {
		return
	}
	s.nextReport = now.Add(time.Second)
	s.cfg.Progress(Progress{Distinct: s.res.Distinct, Elapsed: now.Sub(s.start), Depth: s.res.Covered,
		Frontier: s.level.Len() - int(s.res.Explored-s.levelStart) + s.next.Len(), Heap: memBytes()})
}

// expand takes the transitions of the state of e: those of an ample set
// where one is found, less those asleep (POR), or with e.only those of a
// re-expansion.
func (s *searcher) expand(e *store.Entry) error {
	return s.expandPre(e, &pre{es: s.m.decode(e.Key)})
}

// expandPre is expand with what a worker computed of e's state in p (its
// decoding at least).
func (s *searcher) expandPre(e *store.Entry, p *pre) error {
	cfg := &s.cfg
	es := p.es
	s.res.Explored++
	ts := p.ts
	if ts == nil {
		ts = s.m.enabled(es, s.ts[:0])
		s.ts = ts
	}
	s.memo = append(s.memo[:0], p.memo...)
	if cfg.POR && !cfg.sleepOnly && e.Only < 0 {
		var reduced bool
		var err error
		s.handed = p.cands
		if ts, reduced, err = s.pickAmple(e, es, ts); err != nil {
			return err
		}
		if reduced {
			s.res.Reduced++
		}
	}
	var sleep []Trans
	if cfg.POR {
		sl, _ := s.recs.SleepOf(e.Rec)
		sleep = s.sleeps.At(sl)
		if e.Only >= 0 {
			only := s.sleeps.At(e.Only)
			ts = slices.DeleteFunc(ts, func(t Trans) bool { return !containsT(only, t) })
		} else {
			ts = slices.DeleteFunc(ts, func(t Trans) bool { return containsT(sleep, t) })
		}
		s.recs.SetSleep(e.Rec, sl, true)
	}
	done := s.doneb[:0]
	for _, t := range ts {
		next, viol, err := s.successor(es, e.Depth, t)
		if err != nil {
			return err
		}
		kept := s.m.kept
		s.res.Transitions++
		sl := s.slb[:0]
		switch {
		case !cfg.POR:
		case s.ordered && (viol != nil || s.m.orderChanged(es.env, next.env)): // dependent on every step (history.go)
		default:
			sl = s.m.asleepAfter(sl, sleep, done, t)
			done = append(done, t)
			s.doneb = done
		}
		idx, seen, k := s.lookup(next)
		if seen {
			if s.cg != nil && s.recs.DepthOf(idx) <= e.Depth {
				s.res.Back++
			}
			s.cg.Step(e.Rec, idx)
			s.lv.Edge(e.Rec, idx, t, kept)
			if cfg.POR {
				s.revisit(idx, k, sl)
			}
			continue
		}
		s.slb = sl
		if err := s.discover(e, t, next, viol, k, sl); err != nil || s.stopped {
			return err
		}
		s.lv.Edge(e.Rec, int32(s.recs.Len()-1), t, kept)
		s.cg.Step(e.Rec, int32(s.recs.Len()-1))
	}
	return nil
}

// step takes t from es, a state at depth: the virtual time of its events
// is the depth of the state it reaches (as on a replay of the path). Under
// a symmetry the successor is its orbit's representative.
func (s *searcher) step(es *state, depth int32, t Trans) (*state, *Violation, error) {
	next, viol, err := s.stepRaw(es, depth, t)
	if err == nil && s.sym != nil {
		next, _, err = s.sym.canon(next)
	}
	return next, viol, err
}

// stepRaw is step without the symmetry.
func (s *searcher) stepRaw(es *state, depth int32, t Trans) (*state, *Violation, error) {
	s.m.now = int64(depth)
	next, viol, err := s.m.step(es, t)
	if err == nil && s.m.shifting {
		next = s.m.shift(next)
		err = s.m.takeBroken(s.cfg)
	}
	return next, viol, err
}

// successor is es's successor by t, from the memo if pickAmple stepped it.
func (s *searcher) successor(es *state, depth int32, t Trans) (*state, *Violation, error) {
	for _, c := range s.memo {
		if c.t == t {
			return c.s, c.viol, nil
		}
	}
	return s.step(es, depth, t)
}

// pickAmple returns the transitions of the first candidate ample set of e
// whose steps are all invisible and none of whose successors was seen at
// e's depth or less (the cycle proviso), and whether it is smaller than
// ts; otherwise ts itself.
func (s *searcher) pickAmple(e *store.Entry, es *state, ts []Trans) ([]Trans, bool, error) {
	cands := s.handed
	if cands == nil {
		s.cands = s.m.ampleSets(es, ts, s.cands)
		cands = s.cands
	}
next:
	for _, S := range cands {
		for _, t := range ts {
			if S&(1<<(t.Node-1)) == 0 {
				continue
			}
			k := slices.IndexFunc(s.memo, func(c succ) bool { return c.t == t })
			if k < 0 {
				next, viol, err := s.step(es, e.Depth, t)
				if err != nil {
					return nil, false, err
				}
				s.memo = append(s.memo, succ{t: t, s: next, viol: viol, vis: s.m.vis})
				k = len(s.memo) - 1
			}
			if s.memo[k].vis || !s.m.within(s.memo[k].s) {
				continue next // visible, or beyond the constraint: expand in full
			}
			if idx, seen, _ := s.lookup(s.memo[k].s); seen && s.recs.DepthOf(idx) <= e.Depth {
				continue next
			}
		}
		return slices.DeleteFunc(ts, func(t Trans) bool { return S&(1<<(t.Node-1)) == 0 }), true, nil
	}
	return ts, false, nil
}

// asleepAfter appends to sl the transitions asleep after t: those of the
// state's sleep set and those taken before t from the same state (done)
// that are independent of t.
func (m *machine) asleepAfter(sl, sleep, done []Trans, t Trans) []Trans {
	for _, u := range sleep {
		if m.independent(u, t) {
			sl = append(sl, u)
		}
	}
	for _, u := range done {
		if m.independent(u, t) {
			sl = append(sl, u)
		}
	}
	return sl
}

// revisit reaches the state idx (key k) again with sleep set sl: the
// transitions of its sleep set that are not in sl wake up, and if it was
// expanded already, it is expanded again with those alone.
func (s *searcher) revisit(idx int32, k []byte, sl []Trans) {
	sleep, expanded := s.recs.SleepOf(idx)
	wake, keep := s.wakeb[:0], s.keepb[:0]
	for _, u := range s.sleeps.At(sleep) {
		if containsT(sl, u) {
			keep = append(keep, u)
		} else {
			wake = append(wake, u)
		}
	}
	if len(wake) > 0 {
		sleep = s.sleeps.ID(keep)
		s.recs.SetSleep(idx, sleep, expanded)
		if expanded {
			s.push(k, store.Entry{Rec: idx, Depth: s.recs.DepthOf(idx), Only: s.sleeps.ID(wake), Sleep: sleep})
		}
	}
	s.wakeb, s.keepb = wake, keep
}

// discover records next, a new state reached from e by t with sleep set
// sl, and judges it: the violation its step reported, else its
// properties if it is terminal; otherwise it is queued for the next level
// (unless beyond the constraint or cfg.MaxDepth).
func (s *searcher) discover(e *store.Entry, t Trans, next *state, viol *Violation, k []byte, sl []Trans) error {
	cfg := &s.cfg
	sleep := s.sleeps.ID(sl)
	idx := s.insert(k, e.Rec, t, e.Depth+1, sleep)
	s.lv.State(s.m.owed(next))
	if cfg.CheckClones {
		if err := s.m.checkClone(s.cfg, next, s.path(idx), k); err != nil {
			return err
		}
	}
	s.res.Distinct++
	d := int(e.Depth) + 1
	s.res.Depth = max(s.res.Depth, d)
	if viol != nil && (cfg.Only == "" || viol.Property == cfg.Only) {
		p, v, err := s.reported(idx)
		if v != nil && v.Property == viol.Property {
			viol = v // under a symmetry: named as on the concrete path
		}
		if err == nil && s.ordered {
			viol, err = s.worded(p, viol)
		}
		if err == nil {
			err = s.confirm(next, p, viol)
		}
		s.res.Violation, s.res.Path, s.stopped = viol, p, true
		return err
	}
	if cfg.Goal != nil && s.m.goal(next) {
		s.res.Goal, s.res.Path, s.stopped = true, s.path(idx), true
		return nil
	}
	switch {
	case !s.m.within(next):
		s.res.Beyond++ // outside the constraint: counted, not expanded
	case s.m.terminal(next):
		v, err := s.judge(idx)
		if err != nil {
			return err
		}
		if v != nil {
			p, _, err := s.reported(idx)
			if err == nil {
				err = s.confirm(next, p, v)
			}
			s.res.Violation, s.res.Path, s.stopped = v, p, true
			return err
		}
	case cfg.MaxDepth > 0 && d >= cfg.MaxDepth:
		s.bounded = true
	default:
		s.push(k, store.Entry{Rec: idx, Depth: int32(d), Only: -1, Sleep: sleep})
	}
	if cfg.MaxStates > 0 && s.res.Distinct >= cfg.MaxStates {
		s.res.Stop, s.stopped = "max-states", true
	}
	return nil
}

// judge judges the terminal state idx by replaying the path to it through
// every property of the run.
func (s *searcher) judge(idx int32) (*Violation, error) {
	s.res.Terminal++
	if s.cfg.Checks == nil {
		return nil, nil
	}
	p, _, err := s.reported(idx)
	if err != nil {
		return nil, err
	}
	set := check.NewSet(s.cfg.Checks()...)
	rr, err := replay(s.cfg, s.m.in, p, func(e *trace.Event) { set.Observe(e) })
	if err != nil {
		return nil, diverged(s.cfg, "the path "+FormatPath(p)+" to a terminal state", err)
	}
	for _, v := range set.Finish(check.End{Terminated: rr.Terminated, Messages: rr.Messages}) {
		if id := check.ID(v.Property); !v.OK && (s.cfg.Only == "" || id == s.cfg.Only) {
			return &Violation{Property: id, Detail: v.Detail}, nil
		}
	}
	return nil, nil
}

// lookup returns the record of s's state if it was seen, and its key.
func (s *searcher) lookup(st *state) (int32, bool, []byte) {
	for i := range s.memo {
		if c := &s.memo[i]; c.s == st && c.key != nil {
			if s.cfg.Exact {
				idx, ok := s.full[string(c.key)]
				return idx, ok, c.key
			}
			idx, ok := s.fp.Get(c.fp)
			return idx, ok, c.key
		}
	}
	s.key = st.appendKey(s.key[:0], s.m.in)
	if s.cfg.Exact {
		idx, ok := s.full[string(s.key)]
		return idx, ok, s.key
	}
	idx, ok := s.fp.Get(maphash.Bytes(s.seed, s.key))
	return idx, ok, s.key
}

// insert records a new state whose key is k, reached from parent by t
// at depth with the sleep set numbered sleep.
func (s *searcher) insert(k []byte, parent int32, t Trans, depth, sleep int32) int32 {
	idx := s.recs.Add(parent, t, depth, sleep)
	if s.cfg.Exact {
		s.full[string(k)] = idx
	} else {
		s.fp.Put(s.fingerprint(k), idx)
	}
	return idx
}

// fingerprint is k's, from the memo when a worker computed it.
func (s *searcher) fingerprint(k []byte) uint64 {
	for i := range s.memo {
		if c := &s.memo[i]; len(c.key) == len(k) && len(k) > 0 && &c.key[0] == &k[0] {
			return c.fp
		}
	}
	return maphash.Bytes(s.seed, k)
}

// push queues the state of key k for the next level.
func (s *searcher) push(k []byte, e store.Entry) {
	e.Key = k
	s.next.Push(e)
}

// path is the shortest path to the state idx.
func (s *searcher) path(idx int32) []Trans {
	var p []Trans
	for idx > 0 {
		var t Trans
		idx, t = s.recs.Parent(idx)
		p = append(p, t)
	}
	slices.Reverse(p)
	return p
}

// reported is the path to the state idx as a run takes it: path, or
// under a symmetry the concrete path it stands for, with the violation
// its last step reported (concrete).
func (s *searcher) reported(idx int32) ([]Trans, *Violation, error) {
	if s.sym == nil {
		return s.path(idx), nil, nil
	}
	return s.concrete(s.path(idx))
}

// memBytes is the live Go heap, as the runtime last measured it, and the
// tables held off it.
func memBytes() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc + store.Mapped()
}

// independent reports whether t and u commute and neither disables the
// other: steps at two different nodes that take an input each. A fault
// is dependent on everything; under TimersQuiet so is a timer (any send
// or delivery may enable or disable it).
func (m *machine) independent(t, u Trans) bool {
	if t.Node == u.Node || t.Kind > Command || u.Kind > Command {
		return false
	}
	return m.cfg.Timers != TimersQuiet || (t.Kind != Fire && u.Kind != Fire)
}

func containsT(ts []Trans, t Trans) bool {
	for _, u := range ts {
		if u.same(t) {
			return true
		}
	}
	return false
}

// letHeadroomGo lets go of the search's headroom, if it holds some.
func (s *searcher) letHeadroomGo() {
	if s.headroom != nil {
		s.headroom()
		s.headroom, s.headroomN = nil, 0
	}
}

// searched, when set (by a test), sees every search before it releases
// its tables.
var searched func(*searcher)
