package statespace

// helping is 1 when the committer of a parallel search also computes
// batches, those no worker took yet, while the batch it must commit next
// is not ready: --workers N then runs N goroutines, N-1 workers and the
// committer, not N+1 on N cores. 0 is the plain version (N workers and a
// committer that only commits). Measured as recycle.go's, it saves 2 to
// 4% of the CPU (BenchmarkCheck/algo=lamport-tla/workers=2: 8.9 s
// against 8.6 s without the reduction, 6.1 s against 5.9 s with it); what
// it is for, the wall time of a search with the cores to itself, this
// loaded machine could not show.
const helping = 1

// await returns once batch b is computed; meanwhile the committer
// computes, with its own machine, batches nobody took (claim).
func (s *searcher) await(b *batch, claim func(*machine, *slot) bool) {
	for helping == 1 {
		select {
		case <-b.ready:
			return
		default:
		}
		select {
		case sl := <-s.par.free:
			if !claim(s.m, sl) {
				<-b.ready // no batch left: b is being computed
				return
			}
		default:
			<-b.ready // every slot is out: b is among them, being computed
			return
		}
	}
	<-b.ready
}
