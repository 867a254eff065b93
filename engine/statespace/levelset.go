package statespace

import "hash/maphash"

// levelLocal takes the visited set off the committer of a parallel
// search. During a level the states of the earlier levels are read only:
// the states the level finds go to a level-local table (levelSet), merged
// into the search's visited set once the level is committed and its
// workers have stopped. So a worker looks up, without a lock, every
// successor it computes in the earlier levels' set and hands the
// committer the answer (succ.looked, succ.seen, succ.idx): the
// committer probes only the small level-local table, and only for the
// successors the earlier levels do not hold. The workers also apply the
// ample sets' cycle proviso where the earlier levels decide it (guess.go),
// so the committer seldom steps a transition itself. The numbering of the
// states, and so every count and path, is that of the one-worker search.
// It serves the search with the reduction only: without it the committer
// has little else to do (9% of the search's CPU on the TLC configuration)
// and the workers' lookups cost more than they save there (2.55 s of CPU
// against 2.33 s, medians of five interleaved runs). levelLocal = false
// is the plain version: the committer looks up and inserts in the one
// shared table. Gain, the committer's share of the CPU of two workers
// (CPU profile of BenchmarkCheck/algo=lamport-tla/impl=por/workers=2):
// 8.4% against 25.4% (36.6% before the workers' proviso and asleep.go);
// the CPU of the whole search is the same (1.35 s against 1.36 s, TLC
// configuration, medians of five interleaved runs under load). On two
// cores the wall clock is the same (0.70 s against 0.68 s, load about
// 1): the committer, helping, did not bound two goroutines. What it buys
// is for more cores: a committer at 36.6% bounds N workers at 2.7x, at
// 8.4% at 12x.
const levelLocal = true

// levelSet is the states one level of a parallel search found, by
// fingerprint (or, Config.Exact, by key), with their record numbers: an
// open-addressing table whose slots with a record number below base (the
// first number of the level) count as empty, so a new level empties it
// by moving base. A slot is two words, the fingerprint and the record
// number, so a probe touches one cache line; big tables live off the Go
// heap (slab.go). fps is the level's fingerprints in record order.
type levelSet struct {
	slots block[uint64]
	n     int
	base  int32
	fps   []uint64
	full  map[string]int32 // Config.Exact
	keyb  []string
	hits  int // lookups that found a state of the level
}

func newLevelSet() *levelSet {
	return &levelSet{slots: newBlock[uint64](2 << 10), full: map[string]int32{}}
}

// begin empties the set for a level whose first state is numbered base.
func (l *levelSet) begin(base int32) {
	l.base, l.n, l.fps, l.keyb = base, 0, l.fps[:0], l.keyb[:0]
	clear(l.full)
}

func (l *levelSet) get(fp uint64) (int32, bool) {
	fp = max(fp, 1)
	s := l.slots.s
	mask := uint64(len(s)/2 - 1)
	for i := fp & mask; ; i = (i + 1) & mask {
		k, rec := s[2*i], int32(s[2*i+1])
		if rec < l.base || k == 0 {
			return 0, false
		}
		if k == fp {
			return rec, true
		}
	}
}

// put stores fp (not in the set) for the record v, the next one of the
// level.
func (l *levelSet) put(fp uint64, v int32) {
	l.fps = append(l.fps, fp)
	fp = max(fp, 1)
	if 4*(l.n+1) > 3*(len(l.slots.s)/2) {
		old := l.slots
		l.slots = newBlock[uint64](2 * len(old.s))
		for i := 0; i < len(old.s); i += 2 {
			if k, rec := old.s[i], int32(old.s[i+1]); k != 0 && rec >= l.base {
				l.insert(k, rec)
			}
		}
		old.free()
	}
	l.insert(fp, v)
	l.n++
}

func (l *levelSet) insert(fp uint64, v int32) {
	s := l.slots.s
	mask := uint64(len(s)/2 - 1)
	i := fp & mask
	for s[2*i] != 0 && int32(s[2*i+1]) >= l.base {
		i = (i + 1) & mask
	}
	s[2*i], s[2*i+1] = fp, uint64(v)
}

// free gives the table's memory back.
func (l *levelSet) free() { l.slots.free() }

// mergeInto adds the level's states to the search's visited set, f or
// full.
func (l *levelSet) mergeInto(f *fpSet, full map[string]int32, hits *int) {
	if hits != nil {
		*hits += l.hits
	}
	l.hits = 0
	if f == nil {
		for i, k := range l.keyb {
			full[k] = l.base + int32(i)
		}
		return
	}
	f.putAll(l.fps, l.base)
}

// putAll stores fps[i] (none in the set) with base+i.
func (f *fpSet) putAll(fps []uint64, base int32) {
	for i, fp := range fps {
		f.put(fp, base+int32(i))
	}
}

// lookupPar is lookup for the committer of a parallel search: a state
// the workers looked up in the earlier levels (c, else nil) or, else,
// one looked up there now, then in the level's own set.
func (s *searcher) lookupPar(c *succ, k []byte, fp uint64) (int32, bool) {
	if c == nil || !c.looked {
		if s.cfg.Exact {
			if idx, ok := s.full[string(k)]; ok {
				return idx, true
			}
		} else if idx, ok := s.fp.get(fp); ok {
			return idx, true
		}
	} else if c.seen {
		return c.idx, true
	}
	var idx int32
	var ok bool
	if s.cfg.Exact {
		idx, ok = s.lvl.full[string(k)]
	} else {
		idx, ok = s.lvl.get(fp)
	}
	if ok {
		s.lvl.hits++
	}
	return idx, ok
}

// insertPar is insert's visited-set part for the committer of a
// parallel search: into the level's own set.
func (s *searcher) insertPar(k []byte, idx int32) {
	if s.cfg.Exact {
		key := string(k)
		s.lvl.full[key] = idx
		s.lvl.keyb = append(s.lvl.keyb, key)
		return
	}
	s.lvl.put(s.fingerprint(k), idx)
}

// seenBefore looks up, for a worker, the successor of key k (fingerprint
// fp) in the states of the earlier levels, read only while the level is
// expanded.
func (s *searcher) seenBefore(k []byte, fp uint64) (int32, bool) {
	if s.cfg.Exact {
		idx, ok := s.full[string(k)]
		return idx, ok
	}
	return s.fp.get(fp)
}

// fingerprintOf is k's fingerprint (0 with Config.Exact, which keeps
// whole keys).
func (s *searcher) fingerprintOf(k []byte) uint64 {
	if s.cfg.Exact {
		return 0
	}
	return maphash.Bytes(s.seed, k)
}

// lookupLevel is lookup with a level-local set.
func (s *searcher) lookupLevel(st *state) (int32, bool, []byte) {
	for i := range s.memo {
		if c := &s.memo[i]; c.s == st && c.key != nil {
			idx, ok := s.lookupPar(c, c.key, c.fp)
			return idx, ok, c.key
		}
	}
	s.key = st.appendKey(s.key[:0], s.m.in)
	idx, ok := s.lookupPar(nil, s.key, s.fingerprintOf(s.key))
	return idx, ok, s.key
}

// refused reports whether the earlier levels settle that the cycle
// proviso refuses an ample set with the successor c of a state at depth
// (a worker's part of pickAmple): they hold c's state, first reached at
// that depth or less. The states the level itself finds, the committer
// checks.
func (s *searcher) refused(c *succ, depth int32) bool {
	if !c.seen {
		return false
	}
	d := s.par.depths[c.idx/slabLen].s[c.idx%slabLen]
	return d < deepMark && int32(d) <= depth
}
