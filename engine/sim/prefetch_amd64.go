package sim

// prefetch2 asks the CPU to bring the cache lines at a and b in, without
// waiting (see prefetch.go). The addresses are hints; any value, 0
// included, is safe: a prefetch never faults.
func prefetch2(a, b uintptr)
