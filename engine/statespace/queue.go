package statespace

// rec is what the search keeps of every distinct state: how it was
// first reached (parent and transition, for the path) and its sleep set.
type rec struct {
	parent   int32
	depth    int32 // of the first (shortest) path
	t        Trans
	sleep    int32 // POR: the number of the sleep set stored with the state
	expanded bool
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

// entry is a state in the BFS queue: its key (which decode reads back)
// in the level's arena, at ref, n bytes long.
type entry struct {
	ref   uint64
	n     uint32
	rec   int32
	depth int32
	only  int32 // re-expansion: the number of the set of transitions to take (-1: a first expansion)
}

// arena holds the keys of one BFS level in chunks of a MiB (no copying
// as it grows).
type arena struct{ chunks [][]byte }

const chunkSize = 1 << 20

func (a *arena) add(b []byte) uint64 {
	last := len(a.chunks) - 1
	if last < 0 || len(a.chunks[last])+len(b) > cap(a.chunks[last]) {
		a.chunks = append(a.chunks, make([]byte, 0, max(chunkSize, len(b))))
		last++
	}
	ref := uint64(last)<<32 | uint64(len(a.chunks[last]))
	a.chunks[last] = append(a.chunks[last], b...)
	return ref
}

func (a *arena) get(ref uint64, n uint32) []byte {
	c, off := ref>>32, uint32(ref)
	return a.chunks[c][off : off+n]
}
