package sim

import (
	"reflect"
	"unsafe"
)

// Prefetching: on a big ring the receivers of one tick are scattered over
// memory, and each delivery would wait on two cache misses in a row (the
// receiver's nodeState, then its node's data). So the loop asks the CPU to
// fetch them for the item `ahead` places further on, while it handles
// this one (prefetch2, in assembly on amd64, a no-op elsewhere).
//
// Measured gain (user CPU of the million-node Chang-Roberts, every node
// starting, 6 runs each interleaved on 2 cores): 0.59 s with prefetching,
// 1.16 s without, about twice the work. The command of fastpath.go
// measures it (impl=sim against impl=sim-unoptimized). Removing it is one
// edit: set prefetching to false in newSim.
//
// It depends on no layout of Go's own: the nodes' addresses come from
// reflect (for nodes that are pointers), and a prefetch is only a hint — an
// address that is wrong (a restarted node, elsewhere) just misses.
const (
	ahead         = 16
	prefetchNodes = 1 << 14 // below this many nodes, they stay in the caches
)

func (s *sim) prefetchAhead() {
	next := s.q.ahead()
	if len(next) > ahead {
		s.prefetchSlot(&next[ahead])
	}
}

// prefetchSlot prefetches what delivering it will read.
func (s *sim) prefetchSlot(it *slot) {
	var nd uintptr
	if s.ndStride != 0 {
		nd = s.ndBase + uintptr(it.to)*s.ndStride
	}
	prefetch2(uintptr(unsafe.Pointer(&s.nodes[it.to])), nd)
}

// layout returns base and stride such that node i's data is at base +
// i*stride for every node, or 0, 0 if they are not so laid out. A factory
// that builds its nodes out of one array (changroberts.Factory) lays them
// out so; nodes allocated one by one are not, in general, and then only
// the nodeStates are prefetched.
func layout(nodes []nodeState) (base, stride uintptr) {
	if len(nodes) < 3 {
		return 0, 0
	}
	addr := func(i int) (uintptr, bool) {
		v := reflect.ValueOf(nodes[i].nd)
		if v.Kind() != reflect.Pointer {
			return 0, false
		}
		return uintptr(v.UnsafePointer()), true
	}
	a1, ok1 := addr(1)
	a2, ok2 := addr(2)
	if !ok1 || !ok2 || a2 <= a1 {
		return 0, 0
	}
	stride = a2 - a1
	base = a1 - stride
	for i := 3; i < len(nodes); i++ {
		if a, ok := addr(i); !ok || a != base+uintptr(i)*stride {
			return 0, 0
		}
	}
	return base, stride
}
