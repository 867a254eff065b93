package store

// A shard of the visited set (fpSet) grows by half when it would pass
// 3/4 full, so it is 1/2 to 3/4 full (1.64 slots a state on average over
// all sizes), where doubling leaves it 3/8 to 3/4 full (1.92 slots a
// state). Its slot count is then no power of two, and a fingerprint's
// home slot is its low 32 bits scaled to the size (a multiply and a
// shift, no division). At 10 million states the table is 108 MB instead
// of 134 MB (8-byte slots, 52,597 a shard instead of 65,536): peak RSS
// 239,348 KB against 262,260 KB (GOMAXPROCS=1 ringlab mutex check
// ricart-agrawala --nodes 4 --requests 1 --max-states 10000000
// --workers 1 --por=false).
// growByHalf = false is the plain version (doubling).
const growByHalf = true

// grown is the slot count after n.
func grown(n int) int {
	if growByHalf {
		return n + n/2
	}
	return 2 * n
}

// Home is fp's first slot in a shard of n slots.
func Home(fp uint64, n int) int {
	return int(uint64(uint32(fp)) * uint64(n) >> 32)
}
