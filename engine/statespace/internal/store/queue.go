package store

import (
	"bufio"
	"encoding/binary"
	"os"
	"runtime"
	"sort"
)

// Records is what the search keeps of every distinct state, by number in
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
type Records[T comparable] struct {
	link  links
	sleep Slab[uint32]    // POR: the number of the state's sleep set; expandedBit, oddBit
	odd   map[int32]int32 // the depths not implied by first
	first []int32         // the number of the first state of each depth
	por   bool
	// The distinct transitions, numbered: a link holds a number (4
	// bytes), not a Trans (16).
	tnum  map[T]uint32
	trans []T
}

const (
	expandedBit = 1 << 31 // the state was expanded
	oddBit      = 1 << 30 // the state's depth is in odd
	sleepMask   = oddBit - 1
)

// NewRecords makes the records of a search (por: with sleep sets),
// keeping in memory the latest keep parent links (0: LinkMem) and the
// older ones in a file in dir ("": os.TempDir).
func NewRecords[T comparable](por bool, dir string, keep int) Records[T] {
	return Records[T]{por: por, tnum: map[T]uint32{}, first: []int32{0}, link: links{dir: dir, keep: keep}}
}

// Add records a state reached from parent (-1: none) by t at depth with
// sleep set number sleep, and returns its number.
func (r *Records[T]) Add(parent int32, t T, depth int32, sleep int32) int32 {
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
		r.sleep.Push(v)
	}
	r.link.push(uint64(uint32(parent))<<32 | uint64(tn))
	return i
}

// Len is the states recorded.
func (r *Records[T]) Len() int { return r.link.len() }

// Parent returns the parent of state i and the transition from it.
func (r *Records[T]) Parent(i int32) (int32, T) {
	l := r.link.at(i)
	return int32(uint32(l >> 32)), r.trans[uint32(l)]
}

// Level notes that the states found from now on are one deeper: the
// search begins expanding the next level.
func (r *Records[T]) Level() { r.first = append(r.first, int32(r.Len())) }

// DepthOf is the depth of state i's first path.
func (r *Records[T]) DepthOf(i int32) int32 {
	if r.odd != nil && (!r.por || *r.sleep.At(int(i))&oddBit != 0) {
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

// SleepOf returns state i's sleep set number and whether it was expanded.
func (r *Records[T]) SleepOf(i int32) (int32, bool) {
	v := *r.sleep.At(int(i))
	return int32(v & sleepMask), v&expandedBit != 0
}

// SetSleep sets state i's sleep set number and whether it was
// expanded.
func (r *Records[T]) SetSleep(i int32, sleep int32, expanded bool) {
	p := r.sleep.At(int(i))
	v := *p&oddBit | uint32(sleep)
	if expanded {
		v |= expandedBit
	}
	*p = v
}

// Free gives the records' memory and file back.
func (r *Records[T]) Free() {
	r.link.free()
	r.sleep.Free()
}

// Err is the first I/O error met writing or reading the parent links
// (nil: none).
func (r *Records[T]) Err() error { return r.link.err }

// Entry is a state in the BFS queue, as read back from it.
type Entry struct {
	Rec   int32 // the state's number in the Records
	Depth int32 // the depth it is expanded at
	Only  int32 // re-expansion: the number of the set of transitions to take (-1: a first expansion)
	// Sleep is the state's sleep set number when it was queued: a
	// superset of its set now (a revisit only removes transitions).
	Sleep int32
	Key   []byte // the state's key, which decode reads back
}

// Queue is one BFS level: its entries encoded one after another (record,
// depth, only+1, sleep as uvarints, then the key's length and the key),
// in memory up to spillAt bytes, beyond that all in a temporary file in
// dir ("": os.TempDir), removed as soon as it is made where the OS
// allows (so not even a crash leaves it behind) and by close otherwise.
type Queue struct {
	n       int
	marks   []int64 // the offset of every markEvery-th entry
	size    int64
	mem     []Block[byte] // chunks of chunkSize bytes, off the heap
	used    int           // bytes in the last chunk
	f       *os.File
	w       *bufio.Writer
	dir     string
	spillAt int64
	Spilled int64 // bytes written to the file
	err     error // the first I/O error (sticky)
	buf     []byte
}

const (
	chunkSize = 1 << 20
	MarkEvery = 32
	// SpillAt is the default size from which a level goes to disk: two
	// levels in memory (the one read, the next written) hold at most
	// 8 MiB. A level written to the file is read back from the page
	// cache, outside the process's memory; at 16 MiB the level being
	// written before it spills added 16 MB to the peak RSS of a
	// 10-million-state search.
	SpillAt = 4 << 20
)

// NewQueue makes an empty level that goes to a file in dir ("":
// os.TempDir) once it holds at bytes (SpillAt is the default).
func NewQueue(dir string, at int64) *Queue { return &Queue{dir: dir, spillAt: at} }

// Push appends e to the level.
func (q *Queue) Push(e Entry) {
	if q.n%MarkEvery == 0 {
		q.marks = append(q.marks, q.size)
	}
	b := binary.AppendUvarint(q.buf[:0], uint64(e.Rec))
	b = binary.AppendUvarint(b, uint64(e.Depth))
	b = binary.AppendUvarint(b, uint64(e.Only+1))
	b = binary.AppendUvarint(b, uint64(e.Sleep))
	b = binary.AppendUvarint(b, uint64(len(e.Key)))
	b = append(b, e.Key...)
	q.buf = b
	q.n++
	q.size += int64(len(b))
	if q.f == nil && q.size > q.spillAt && q.err == nil {
		q.spill()
	}
	if q.f != nil {
		if q.err == nil {
			_, q.err = q.w.Write(b)
			q.Spilled += int64(len(b))
		}
		return
	}
	for len(b) > 0 {
		if len(q.mem) == 0 || q.used == chunkSize {
			q.mem = append(q.mem, NewBlock[byte](chunkSize))
			q.used = 0
		}
		k := copy(q.mem[len(q.mem)-1].S[q.used:], b)
		q.used += k
		b = b[k:]
	}
}

// spill moves the level so far (but the entry just pushed, in q.buf) to
// a temporary file, where the rest of it will go.
func (q *Queue) spill() {
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
		c := q.mem[i].S
		if i == len(q.mem)-1 {
			c = c[:q.used]
		}
		if q.err == nil {
			_, q.err = q.w.Write(c)
			q.Spilled += int64(len(c))
		}
		q.mem[i].Free()
	}
	q.mem = nil
}

// Finish ends the writing of the level: it can be read from now on.
func (q *Queue) Finish() error {
	if q.w != nil && q.err == nil {
		q.err = q.w.Flush()
	}
	return q.err
}

// Read returns the bytes of the entries lo to hi, lo a multiple of
// markEvery and hi one or n, in buf if it is large enough. It may be
// called from several goroutines once the level is finished.
func (q *Queue) Read(lo, hi int, buf []byte) ([]byte, error) {
	from, to := q.marks[lo/MarkEvery], q.size
	if hi < q.n {
		to = q.marks[hi/MarkEvery]
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
		c := q.mem[(from+int64(k))/chunkSize].S
		k += copy(buf[k:], c[(from+int64(k))%chunkSize:])
	}
	return buf, nil
}

// ParseEntries appends to out the entries encoded in b (whose keys point
// into b).
func ParseEntries(b []byte, out []Entry) []Entry {
	uv := func() uint64 {
		v, k := binary.Uvarint(b)
		b = b[k:]
		return v
	}
	for len(b) > 0 {
		var e Entry
		e.Rec, e.Depth, e.Only, e.Sleep = int32(uv()), int32(uv()), int32(uv())-1, int32(uv())
		n := uv()
		e.Key, b = b[:n:n], b[n:]
		out = append(out, e)
	}
	return out
}

// Close removes the level's file, if it has one.
func (q *Queue) Close() {
	if q.f != nil {
		q.f.Close()
		if runtime.GOOS == "windows" {
			os.Remove(q.f.Name())
		}
		q.f = nil
	}
	for i := range q.mem {
		q.mem[i].Free()
	}
	q.mem = nil
}

// Len is the entries pushed.
func (q *Queue) Len() int { return q.n }

// Err is the first I/O error met writing the level (nil: none).
func (q *Queue) Err() error { return q.err }

// Odd is how many states' depths the records keep because their numbers
// do not imply them.
func (r *Records[T]) Odd() int { return len(r.odd) }
