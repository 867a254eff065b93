package maekawa

// The grid quorums. Nodes 1..n are laid out row by row in a grid k = ceil(√n)
// columns wide and r = ceil(n/k) rows high; only the last row may be short.
// Node i's quorum is every node in its row and every node in its column,
// itself included.
//
// Any two quorums intersect, also when n is not a perfect square. Take a in
// row ra, column ca and b in (rb, cb). The same row or the same column is a
// common member. Otherwise the two grid cells (ra, cb) and (rb, ca) both lie
// in both quorums; a cell is empty only in the short last row. If (ra, cb) is
// empty, ra is the last row, so rb is not, and (rb, ca) is a node. The tests
// check every pair for n = 1..50.
//
// A quorum has (its row's length) + (its column's height) - 1 members: at
// most k + r - 1 (node 1's), which is 2√n - 1 when n is a perfect square.

// side returns k = ceil(√n) and r = ceil(n/k).
func side(n int) (k, r int) {
	for k*k < n {
		k++
	}
	return k, (n + k - 1) / k
}

// Quorum returns node i's quorum (1-based indices, ascending, i included)
// among n nodes. It returns nil when i is not in 1..n.
func Quorum(n, i int) []int {
	if i < 1 || i > n {
		return nil
	}
	k, _ := side(n)
	row, col := (i-1)/k, (i-1)%k
	var q []int
	for j := 1; j <= n; j++ {
		if (j-1)/k == row || (j-1)%k == col {
			q = append(q, j)
		}
	}
	return q
}

// QuorumSize is the size K of the largest quorum among n nodes: k + r - 1
// (see Quorum); 2√n - 1 for a perfect square.
func QuorumSize(n int) int {
	if n < 1 {
		return 0
	}
	k, r := side(n)
	return k + r - 1
}

// MessagesPerEntry is the theory for one CS entry by a node with the largest
// quorum: 3(K-1) without contention (REQUEST, LOCKED, RELEASE to each other
// member) and up to 5(K-1) under contention (FAILED, INQUIRE and RELINQUISH
// on top), about 3√n to 5√n — Maekawa's figures. A node's own member is
// reached without a message.
func MessagesPerEntry(n int) (uncontended, contended int) {
	k := QuorumSize(n)
	if k == 0 {
		return 0, 0
	}
	return 3 * (k - 1), 5 * (k - 1)
}
