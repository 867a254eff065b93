package statespace

// guess makes a worker of a parallel search with the partial-order
// reduction step, of a state's transitions, those the committer's choice
// of an ample set (pickAmple) needs: the steps of the candidates in the
// order pickAmple tries them, up to the first whose steps are all
// invisible and within the constraint, and every transition not asleep
// only if no candidate is. The committer takes that candidate unless the
// cycle proviso refuses it; then it steps what is missing itself. Off (the plain version), a worker steps
// every transition not asleep, of which an ample set leaves some out.
// Gain in wall time on two cores with nothing else running (the TLC
// configuration, `--workers 2`, seven interleaved runs, medians): 0.85 s
// against 0.95 s (-11%); in CPU, BenchmarkCheck/algo=lamport-tla/impl=por/
// workers=2: 5.4 s against 5.9 s (-9%), 708 MB allocated a search against
// 819 MB (one worker: 686 MB).
const guess = true

// guessAmple steps by take (which returns the successor by a transition,
// stepped once, or nil on an error) what pickAmple will step of p's
// state, cands its scratch. It reports whether the state is likely
// expanded in full (the rest is then to be stepped), and false for ok
// where a step failed. p.cands is then the candidates pickAmple is to
// try: from the first whose steps are all invisible and within the
// constraint on (where every step succeeded).
func guessAmple(m *machine, p *pre, cands *[]uint64, take func(Trans) *succ) (full, ok bool) {
	if !guess {
		return true, true
	}
	*cands = m.ampleSets(p.es, p.ts, *cands)
next:
	for k, S := range *cands {
		for _, t := range p.ts {
			if S&(1<<(t.Node-1)) == 0 {
				continue
			}
			c := take(t)
			if c == nil {
				return false, false
			}
			if c.vis || !m.within(c.s) {
				continue next
			}
		}
		p.cands = (*cands)[k:]
		return false, true
	}
	p.cands = (*cands)[len(*cands):]
	return true, true
}
