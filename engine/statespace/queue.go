package statespace

import (
	"bufio"
	"encoding/binary"
	"os"
	"runtime"
	"sort"
)

// records is what the search keeps of every distinct state, by number in
// the order found, off the Go heap: how it was first reached (its parent's
// number and the transition, for the path: mostly on disk), and with the
// partial-order reduction its sleep set. A state's depth follows from its
// number: the states of each depth are found one level after another
// (first), except, with the reduction, those found from a state
// expanded again when its sleep set woke up (revisit), at a level deeper
// than their depth: those few are kept in odd, and their sleep word's
// oddBit says so. A 2-byte depth a state was 20 MB at 10 million states
// of ricart-agrawala --nodes 4 --requests 1 (which has no such state);
// TLC's configuration (lamport --nodes 3 --clock requests --requests 0
// --max-clock 6) has 638 in 623,337.
type records struct {
	link  links
	sleep slab[uint32]    // POR: the number of the state's sleep set; expandedBit, oddBit
	odd   map[int32]int32 // the depths not implied by first
	first []int32         // the number of the first state of each depth
	por   bool
	// The distinct transitions, numbered: a link holds a number (4
	// bytes), not a Trans (16).
	tnum  map[Trans]uint32
	trans []Trans
}

const (
	expandedBit = 1 << 31 // the state was expanded
	oddBit      = 1 << 30 // the state's depth is in odd
	sleepMask   = oddBit - 1
)

func newRecords(por bool, dir string, keep int) records {
	return records{por: por, tnum: map[Trans]uint32{}, first: []int32{0}, link: links{dir: dir, keep: keep}}
}

// add records a state reached from parent (-1: none) by t at depth with
// sleep set number sleep, and returns its number.
func (r *records) add(parent int32, t Trans, depth int32, sleep int32) int32 {
	tn, ok := r.tnum[t]
	if !ok {
		tn = uint32(len(r.trans))
		r.tnum[t] = tn
		r.trans = append(r.trans, t)
	}
	i := int32(r.link.len())
	odd := depth != int32(len(r.first)-1)
	if odd {
		if r.odd == nil {
			r.odd = map[int32]int32{}
		}
		r.odd[i] = depth
	}
	if r.por {
		if sleep > sleepMask {
			panic("statespace: more than 2^30 sleep sets")
		}
		v := uint32(sleep)
		if odd {
			v |= oddBit
		}
		r.sleep.push(v)
	}
	r.link.push(uint64(uint32(parent))<<32 | uint64(tn))
	return i
}

func (r *records) len() int { return r.link.len() }

// parent returns the parent of state i and the transition from it.
func (r *records) parent(i int32) (int32, Trans) {
	l := r.link.at(i)
	return int32(uint32(l >> 32)), r.trans[uint32(l)]
}

// level notes that the states found from now on are one deeper: the
// search begins expanding the next level.
func (r *records) level() { r.first = append(r.first, int32(r.len())) }

// depthOf is the depth of state i's first path.
func (r *records) depthOf(i int32) int32 {
	if r.odd != nil && (!r.por || *r.sleep.at(int(i))&oddBit != 0) {
		if d, ok := r.odd[i]; ok {
			return d
		}
	}
	last := len(r.first) - 1
	if i >= r.first[last] {
		return int32(last)
	}
	return int32(sort.Search(last, func(d int) bool { return r.first[d] > i }) - 1)
}

// sleepOf returns state i's sleep set number and whether it was expanded.
func (r *records) sleepOf(i int32) (int32, bool) {
	v := *r.sleep.at(int(i))
	return int32(v & sleepMask), v&expandedBit != 0
}

// setSleep sets state i's sleep set number and whether it was
// expanded.
func (r *records) setSleep(i int32, sleep int32, expanded bool) {
	p := r.sleep.at(int(i))
	v := *p&oddBit | uint32(sleep)
	if expanded {
		v |= expandedBit
	}
	*p = v
}

func (r *records) free() {
	r.link.free()
	r.sleep.free()
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

// entry is a state in the BFS queue, as read back from it.
type entry struct {
	rec   int32
	depth int32
	only  int32 // re-expansion: the number of the set of transitions to take (-1: a first expansion)
	// sleep is the state's sleep set number when it was queued: a
	// superset of its set now (a revisit only removes transitions).
	sleep int32
	key   []byte // the state's key, which decode reads back
}

// queue is one BFS level: its entries encoded one after another (record,
// depth, only+1, sleep as uvarints, then the key's length and the key),
// in memory up to spillAt bytes, beyond that all in a temporary file in
// dir ("": os.TempDir), removed as soon as it is made where the OS
// allows (so not even a crash leaves it behind) and by close otherwise.
type queue struct {
	n       int
	marks   []int64 // the offset of every markEvery-th entry
	size    int64
	mem     []block[byte] // chunks of chunkSize bytes, off the heap
	used    int           // bytes in the last chunk
	f       *os.File
	w       *bufio.Writer
	dir     string
	spillAt int64
	spilled int64 // bytes written to the file
	err     error // the first I/O error (sticky)
	buf     []byte
}

const (
	chunkSize = 1 << 20
	markEvery = 32
	// spillAt is the default size from which a level goes to disk: two
	// levels in memory (the one read, the next written) hold at most
	// 8 MiB. A level written to the file is read back from the page
	// cache, outside the process's memory; at 16 MiB the level being
	// written before it spills added 16 MB to the peak RSS of a
	// 10-million-state search.
	spillAt = 4 << 20
)

func newQueue(dir string, at int64) *queue { return &queue{dir: dir, spillAt: at} }

// push appends e to the level.
func (q *queue) push(e entry) {
	if q.n%markEvery == 0 {
		q.marks = append(q.marks, q.size)
	}
	b := binary.AppendUvarint(q.buf[:0], uint64(e.rec))
	b = binary.AppendUvarint(b, uint64(e.depth))
	b = binary.AppendUvarint(b, uint64(e.only+1))
	b = binary.AppendUvarint(b, uint64(e.sleep))
	b = binary.AppendUvarint(b, uint64(len(e.key)))
	b = append(b, e.key...)
	q.buf = b
	q.n++
	q.size += int64(len(b))
	if q.f == nil && q.size > q.spillAt && q.err == nil {
		q.spill()
	}
	if q.f != nil {
		if q.err == nil {
			_, q.err = q.w.Write(b)
			q.spilled += int64(len(b))
		}
		return
	}
	for len(b) > 0 {
		if len(q.mem) == 0 || q.used == chunkSize {
			q.mem = append(q.mem, newBlock[byte](chunkSize))
			q.used = 0
		}
		k := copy(q.mem[len(q.mem)-1].s[q.used:], b)
		q.used += k
		b = b[k:]
	}
}

// spill moves the level so far (but the entry just pushed, in q.buf) to
// a temporary file, where the rest of it will go.
func (q *queue) spill() {
	f, err := os.CreateTemp(q.dir, "ringlab-level-*")
	if err != nil {
		q.err = err
		return
	}
	if runtime.GOOS != "windows" {
		q.err = os.Remove(f.Name())
	}
	q.f, q.w = f, bufio.NewWriterSize(f, 1<<20)
	for i := range q.mem {
		c := q.mem[i].s
		if i == len(q.mem)-1 {
			c = c[:q.used]
		}
		if q.err == nil {
			_, q.err = q.w.Write(c)
			q.spilled += int64(len(c))
		}
		q.mem[i].free()
	}
	q.mem = nil
}

// finish ends the writing of the level: it can be read from now on.
func (q *queue) finish() error {
	if q.w != nil && q.err == nil {
		q.err = q.w.Flush()
	}
	return q.err
}

// read returns the bytes of the entries lo to hi, lo a multiple of
// markEvery and hi one or n, in buf if it is large enough. It may be
// called from several goroutines once the level is finished.
func (q *queue) read(lo, hi int, buf []byte) ([]byte, error) {
	from, to := q.marks[lo/markEvery], q.size
	if hi < q.n {
		to = q.marks[hi/markEvery]
	}
	n := int(to - from)
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if q.f != nil {
		_, err := q.f.ReadAt(buf, from)
		return buf, err
	}
	for k := 0; k < n; {
		c := q.mem[(from+int64(k))/chunkSize].s
		k += copy(buf[k:], c[(from+int64(k))%chunkSize:])
	}
	return buf, nil
}

// parseEntries appends to out the entries encoded in b (whose keys point
// into b).
func parseEntries(b []byte, out []entry) []entry {
	uv := func() uint64 {
		v, k := binary.Uvarint(b)
		b = b[k:]
		return v
	}
	for len(b) > 0 {
		var e entry
		e.rec, e.depth, e.only, e.sleep = int32(uv()), int32(uv()), int32(uv())-1, int32(uv())
		n := uv()
		e.key, b = b[:n:n], b[n:]
		out = append(out, e)
	}
	return out
}

// close removes the level's file, if it has one.
func (q *queue) close() {
	if q.f != nil {
		q.f.Close()
		if runtime.GOOS == "windows" {
			os.Remove(q.f.Name())
		}
		q.f = nil
	}
	for i := range q.mem {
		q.mem[i].free()
	}
	q.mem = nil
}

// searched, when set (by a test), sees every search before it releases
// its tables.
var searched func(*searcher)
