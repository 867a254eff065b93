package quorum

import "math"

// ViolationProbability is the course chapter's chance that two quorums of m out of n
// coordinators are both granted because every coordinator in their
// intersection (at least 2m-n of them) failed and recovered with amnesia, P
// being one coordinator's chance to do so within the window:
//
//	P_v = sum over k = 2m-n .. n of C(m,k) P^k (1-P)^(m-k)
//
// Terms with k > m are zero (C(m,k) = 0), so the sum stops at m. Each term is
// computed in log space (math.Lgamma, math.Log1p), so values far below the
// smallest normal float64 powers, such as ~7.35e-59 for n=32, m=24,
// P=0.0001, come out right. It returns NaN unless CheckQuorum(n, m) accepts
// them and 0 <= p <= 1.
func ViolationProbability(n, m int, p float64) float64 {
	if CheckQuorum(n, m) != nil || !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	sum := 0.0
	for k := 2*m - n; k <= m; k++ {
		sum += math.Exp(logChoose(m, k) + xlog(float64(k), p) + xlog1p(float64(m-k), -p))
	}
	return min(sum, 1)
}

func logChoose(m, k int) float64 {
	a, _ := math.Lgamma(float64(m + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(m - k + 1))
	return a - b - c
}

// xlog is x*log(y) with 0*log(0) = 0.
func xlog(x, y float64) float64 {
	if x == 0 {
		return 0
	}
	return x * math.Log(y)
}

// xlog1p is x*log(1+y) with 0*log(0) = 0.
func xlog1p(x, y float64) float64 {
	if x == 0 {
		return 0
	}
	return x * math.Log1p(y)
}
