package pool

// ForkJoin computes leaf over [lo, hi) by splitting the range in halves until
// a piece holds at most threshold numbers (threshold >= 1). At each split it
// forks the left half into a new goroutine, computes the right half itself,
// then joins: it waits for the left half and adds the two results. It returns
// the total and the number of leaves (pieces computed directly); a split
// tree with L leaves runs at most L-1 extra goroutines at once.
func ForkJoin(lo, hi, threshold int, leaf func(lo, hi int) int64) (total int64, leaves int) {
	if hi-lo <= threshold {
		return leaf(lo, hi), 1
	}
	mid := lo + (hi-lo)/2
	var left int64
	var leftLeaves int
	joined := make(chan struct{})
	go func() { // owned by this call, which waits on joined below
		defer close(joined)
		left, leftLeaves = ForkJoin(lo, mid, threshold, leaf)
	}()
	right, rightLeaves := ForkJoin(mid, hi, threshold, leaf)
	<-joined
	return left + right, leftLeaves + rightLeaves
}

// SumRange is a leaf for ForkJoin: the sum of the integers in [lo, hi).
func SumRange(lo, hi int) int64 {
	var s int64
	for i := lo; i < hi; i++ {
		s += int64(i)
	}
	return s
}

// LeafCount is the number of leaves ForkJoin makes for n numbers.
func LeafCount(n, threshold int) int {
	if n <= threshold {
		return 1
	}
	return LeafCount(n/2, threshold) + LeafCount(n-n/2, threshold)
}
