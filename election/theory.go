package election

import (
	"fmt"
	"io"

	"ringlab/election/changroberts"
	"ringlab/election/franklin"
	"ringlab/election/idlist"
	"ringlab/engine/trace"
)

// comparison is what `compare` measures an algorithm's runs against: the
// theory of its message count for a setup. The run itself is the one the
// algorithm's Build makes.
type comparison struct {
	rank int // compare's default order: the simplest theory first
	// worst arranges ids 1..n for the most messages; nil: descending.
	worst func(n int) []int
	// allStart: every node starts; else node 1 (and every node under
	// compare's --idlist-all when listAll is set).
	allStart, listAll bool
	// theory is the judge of one setup's run.
	theory func(s setup) theory
}

// theory judges one run's count: observe, if set, sees every event of the
// run; judge returns the theory's figure, its formula, and whether the
// measured count is what the theory says.
type theory struct {
	sends   bool // observe needs send events
	observe func(e *trace.Event)
	judge   func(msgs int64) (value, formula string, ok bool, why string)
}

func ringComparison() *comparison {
	return &comparison{rank: 1, theory: func(s setup) theory {
		n, ids := s.n(), s.ids
		d := indexOf(ids, minID(ids)) - 1 // hops from node 1 to the minimum
		return theory{judge: exact(int64(d+2*n), fmt.Sprintf("d + 2n, d = %d", d))}
	}}
}

func changRobertsComparison() *comparison {
	return &comparison{rank: 2, allStart: true, theory: func(s setup) theory {
		n := s.n()
		e, a := changroberts.Messages(s.ids)
		best, worst := int64(changroberts.BestCase(n)+n), int64(changroberts.WorstCase(n)+n)
		avg := float64(n)*harmonic(n) + float64(n)
		return theory{judge: func(m int64) (string, string, bool, string) {
			ok := m == int64(e+a) && m >= best && m <= worst
			switch int64(e + a) {
			case worst:
				return fmt.Sprintf("= %d", worst), "n(n+1)/2 + n", ok, "not the worst case's count"
			case best:
				return fmt.Sprintf("= %d", best), "2n-1 + n", ok, "not the best case's count"
			}
			return fmt.Sprintf("~ %.0f", avg), fmt.Sprintf("n*H_n + n (x%.2f); exact here %d, in [2n-1+n, n(n+1)/2+n]", float64(m)/avg, e+a), ok, "outside its bounds"
		}}
	}}
}

func franklinComparison() *comparison {
	return &comparison{rank: 3, allStart: true, worst: bitReversal, theory: func(s setup) theory {
		n := s.n()
		rounds := 0
		bound := int64(franklin.MaxMessages(n))
		return theory{
			observe: func(e *trace.Event) { rounds = max(rounds, e.Round) },
			judge: func(m int64) (string, string, bool, string) {
				ok := m == int64(franklin.Messages(n, rounds)) && m <= bound
				return fmt.Sprintf("<= %d", bound), fmt.Sprintf("2n(floor(log2 n)+1) + n; R = %d, 2nR + n = %d", rounds, franklin.Messages(n, rounds)), ok, "above the bound"
			},
		}
	}}
}

func idlistComparison() *comparison {
	return &comparison{rank: 4, listAll: true, theory: func(s setup) theory {
		carried := 0
		k := len(s.starters)
		msgs, want := idlist.Messages(s.n(), k)
		return theory{
			sends: true,
			observe: func(e *trace.Event) {
				if e.Kind == trace.KindSend && e.Msg != nil {
					carried += listSize(e.Msg)
				}
			},
			judge: func(m int64) (string, string, bool, string) {
				ok := m == int64(msgs) && carried == want
				return fmt.Sprintf("= %d", msgs), fmt.Sprintf("k*n, k = %d; ids carried %d, k*n(n+1)/2 = %d", k, carried, want), ok, "not k*n, or wrong sizes"
			},
		}
	}}
}

// exact judges a count the theory gives exactly.
func exact(want int64, formula string) func(int64) (string, string, bool, string) {
	return func(m int64) (string, string, bool, string) {
		return fmt.Sprintf("= %d", want), formula, m == want, "not the exact count"
	}
}

// writeFormulas explains the theory column.
func writeFormulas(w io.Writer) {
	fmt.Fprint(w, `
formulas (messages, announcement included; n nodes):
  ring           the specification, one initiator (node 1): d + n ELECTION + n ELECTED = d + 2n, d = hops to the minimum
                 (worst: ids descending, d = n-1; best: ascending, d = 0)
  chang-roberts  every node starting: worst n(n+1)/2 (ids descending), best 2n-1 (ascending), average ~ n*H_n;
                 + n ELECTED; a random layout must match the exact count for its ids and lie within [best, worst]
  franklin       2n per round for R rounds + n ELECTED, R <= floor(log2 n) + 1 (worst: bit-reversal order)
  idlist         k initiators: k*n messages carrying k*n(n+1)/2 ids
`)
}
