package statespace

// slotArenas makes the states a worker of a parallel search builds for a
// batch (its states read back, their successors) live in the batch's
// slot, reused once the batch is committed (recycle.go), rather than be
// allocated one by one: nothing holds a state of a batch after its
// commit (the committer keeps keys, records and interned numbers, never
// a state). The one-worker search, and the committer of a parallel one,
// do the same with the states of one expansion, where they die with it
// (arenaFits). Each state is one box
// with room for its slices. slotArenas = false is the plain version
// (state.shallow and decode: two to four allocations a state).
// Gain, BenchmarkCheck/algo=lamport-tla/nodes=3/impl=por (one search:
// 1.0 M transitions), five interleaved runs each on the shared 2-core
// machine, medians of ns/op: one worker 0.927 s against 1.111 s (-17%),
// two workers 0.611 s against 0.670 s (-9%; -11% in a second series,
// 0.607 s against 0.686 s); 364 MB and 5.6 M allocations a search against
// 622 MB and 10.8 M (-benchmem, one worker).
const slotArenas = true

// The room a box holds: a state with more nodes than boxNodes takes the
// plain path; more pending inputs or messages than the room holds get a
// slice of their own.
const (
	boxNodes = 4
	boxPend  = 4
	boxNet   = 8
)

// stepBox is a successor, its nodes and room for its messages: a step
// that changes the net builds it there when it fits, and cuts it to its
// length when done (machine.step), so that a state sharing it with its
// parent still copies it before changing it.
type stepBox struct {
	s     state
	nodes [boxNodes]uint32
	net   [boxNet]item
}

// readBox is a state read back and its nodes, pending inputs and
// messages, each cut to its length.
type readBox struct {
	s     state
	nodes [boxNodes]uint32
	pend  [boxPend]pend
	net   [boxNet]item
}

// arenaChunk is the boxes of one chunk of an arena: a chunk never moves,
// so a state in it stays where it is until the arena is reset.
const arenaChunk = 64

// arena holds a slot's states: chunks of boxes, handed out in order, all
// taken back at once (reset).
type arena struct {
	steps [][]stepBox
	reads [][]readBox
	ns    int // boxes of steps handed out
	nr    int // boxes of reads handed out
}

// successor returns a shallow copy of s (state.shallow) in a box of a,
// and the room for its net (length 0; nil: none).
func (a *arena) successor(s *state) (*state, []item) {
	n := len(s.nodes)
	if n > boxNodes {
		return s.shallow(), nil
	}
	if a.ns == len(a.steps)*arenaChunk {
		a.steps = append(a.steps, make([]stepBox, arenaChunk))
	}
	b := &a.steps[a.ns/arenaChunk][a.ns%arenaChunk]
	a.ns++
	b.s = *s
	b.s.nodes = b.nodes[:n:n]
	copy(b.s.nodes, s.nodes)
	return &b.s, b.net[:0]
}

// decode is decode with the box taken from a.
func (a *arena) decode(key []byte, n int) *state {
	if n > boxNodes {
		return decode(key, n)
	}
	if a.nr == len(a.reads)*arenaChunk {
		a.reads = append(a.reads, make([]readBox, arenaChunk))
	}
	x := &a.reads[a.nr/arenaChunk][a.nr%arenaChunk]
	a.nr++
	*x = readBox{}
	x.s.nodes = x.nodes[:n:n]
	return decodeInto(&x.s, key, x.pend[:0], x.net[:0])
}

// reset takes every box back; the states in them must be dead. Their
// pointers are cleared, so that what they held can be collected.
func (a *arena) reset() {
	for k := 0; k*arenaChunk < a.ns; k++ {
		clear(a.steps[k][:min(arenaChunk, a.ns-k*arenaChunk)])
	}
	for k := 0; k*arenaChunk < a.nr; k++ {
		clear(a.reads[k][:min(arenaChunk, a.nr-k*arenaChunk)])
	}
	a.ns, a.nr = 0, 0
}

// decode is decode, of a state of m's, with the box taken from m's arena
// if it has one.
func (m *machine) decode(key []byte) *state {
	if m.arena != nil {
		return m.arena.decode(key, m.n)
	}
	return decode(key, m.n)
}

// arenaFits reports whether the states of cfg's one-worker search die
// with the expansion that made them, as a parallel search's die with
// their batch: not under a symmetry, liveness, a goal, Config.OnStep or
// Config.CheckClones (those of parallel).
func arenaFits(cfg Config) bool {
	return !cfg.Liveness && cfg.Goal == nil && cfg.OnStep == nil && !cfg.CheckClones && cfg.Symmetry == nil
}
