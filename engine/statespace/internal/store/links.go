package store

import (
	"os"
	"runtime"
	"unsafe"
)

// links is the parent links of a search's states by state number, 8 bytes
// each (parent number << 32 | transition number): the latest linkMem in
// memory, the older ones in a temporary file written in order (as TLC's
// trace file), read back one at a time to rebuild a path. The file is
// removed as soon as it is made where the OS allows, else by free.
type links struct {
	tail    Block[uint64] // links onDisk to onDisk+used
	used    int
	onDisk  int64
	f       *os.File
	dir     string
	keep    int   // the links kept in memory (0: linkMem)
	err     error // the first I/O error (sticky)
	scratch [8]byte
}

// LinkMem is the links kept in memory (1 MiB): a search of fewer states
// writes none. A larger tail only buffers the writes (the links are
// written in order and rarely read) and counts in the peak RSS.
const LinkMem = 1 << 17

func (l *links) push(v uint64) {
	if l.tail.S == nil {
		if l.keep == 0 {
			l.keep = LinkMem
		}
		l.tail = NewBlock[uint64](l.keep)
	}
	if l.used == l.keep {
		l.flush()
	}
	l.tail.S[l.used] = v
	l.used++
}

func (l *links) flush() {
	if l.f == nil && l.err == nil {
		l.f, l.err = os.CreateTemp(l.dir, "ringlab-links-*")
		if l.err == nil && runtime.GOOS != "windows" {
			l.err = os.Remove(l.f.Name())
		}
	}
	if l.err == nil {
		raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(l.tail.S))), 8*l.used)
		_, l.err = l.f.WriteAt(raw, 8*l.onDisk)
	}
	l.onDisk += int64(l.used)
	l.used = 0
}

func (l *links) len() int { return int(l.onDisk) + l.used }

// at is link i (0 after an I/O error, which l.err keeps).
func (l *links) at(i int32) uint64 {
	if int64(i) >= l.onDisk {
		return l.tail.S[int64(i)-l.onDisk]
	}
	if l.err != nil {
		return 0
	}
	if _, l.err = l.f.ReadAt(l.scratch[:], 8*int64(i)); l.err != nil {
		return 0
	}
	return *(*uint64)(unsafe.Pointer(&l.scratch[0]))
}

func (l *links) free() {
	l.tail.Free()
	if l.f != nil {
		l.f.Close()
		if runtime.GOOS == "windows" {
			os.Remove(l.f.Name())
		}
		l.f = nil
	}
}
