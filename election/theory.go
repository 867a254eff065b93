package election

import (
	"fmt"
	"io"

	"ringlab/election/changroberts"
	"ringlab/election/franklin"
	"ringlab/election/idlist"
	"ringlab/election/smallestid"
	"ringlab/internal/check"
	"ringlab/internal/node"
	"ringlab/internal/sim"
	"ringlab/internal/trace"
)

// theory is one algorithm's run for `compare` and the judge of its count.
type theory struct {
	factory  node.Factory
	checks   []check.Property
	messages bool // the judge needs send events
	observe  func(e *trace.Event)
	// judge returns the theory's figure, its formula, and whether the
	// measured count is what the theory says.
	judge func(res sim.Result) (value, formula string, ok bool, why string)
}

func theorySpec(name string, s setup) (theory, error) {
	n, ids := s.n(), s.ids
	t := theory{observe: func(*trace.Event) {}}
	var err error
	switch name {
	case "ring":
		t.factory, err = smallestid.Factory(smallestid.Ring{IDs: ids})
		t.checks = verdicts(ids, minID(ids), "the smallest id")
		d := indexOf(ids, minID(ids)) - 1 // hops from node 1 to the minimum
		t.judge = exact(int64(d+2*n), fmt.Sprintf("d + 2n, d = %d", d))
	case "chang-roberts":
		t.factory, err = changroberts.Factory(ids)
		t.checks = verdicts(ids, maxID(ids), "the largest id")
		e, a := changroberts.Messages(ids)
		best, worst := int64(changroberts.BestCase(n)+n), int64(changroberts.WorstCase(n)+n)
		avg := float64(n)*harmonic(n) + float64(n)
		t.judge = func(res sim.Result) (string, string, bool, string) {
			m := res.Messages
			ok := m == int64(e+a) && m >= best && m <= worst
			switch int64(e + a) {
			case worst:
				return fmt.Sprintf("= %d", worst), "n(n+1)/2 + n", ok, "not the worst case's count"
			case best:
				return fmt.Sprintf("= %d", best), "2n-1 + n", ok, "not the best case's count"
			}
			return fmt.Sprintf("~ %.0f", avg), fmt.Sprintf("n*H_n + n (x%.2f); exact here %d, in [2n-1+n, n(n+1)/2+n]", float64(m)/avg, e+a), ok, "outside its bounds"
		}
	case "franklin":
		t.factory, err = franklin.Factory(franklin.Config{Ids: ids})
		t.checks = verdicts(ids, maxID(ids), "the largest id")
		rounds := 0
		t.observe = func(e *trace.Event) { rounds = max(rounds, e.Round) }
		bound := int64(franklin.MaxMessages(n))
		t.judge = func(res sim.Result) (string, string, bool, string) {
			ok := res.Messages == int64(franklin.Messages(n, rounds)) && res.Messages <= bound
			return fmt.Sprintf("<= %d", bound), fmt.Sprintf("2n(floor(log2 n)+1) + n; R = %d, 2nR + n = %d", rounds, franklin.Messages(n, rounds)), ok, "above the bound"
		}
	case "idlist":
		t.factory, err = idlist.Factory(ids)
		t.checks = []check.Property{check.Termination{}, NewUniqueness(ids), &agreementAmong{nodes: s.starters, ids: ids},
			NewCorrectness(ids, minID(ids), "the smallest id")}
		t.messages = true
		carried := 0
		t.observe = func(e *trace.Event) {
			if e.Kind == trace.KindSend && e.Msg != nil {
				carried += listSize(e.Msg)
			}
		}
		k := len(s.starters)
		msgs, want := idlist.Messages(n, k)
		t.judge = func(res sim.Result) (string, string, bool, string) {
			ok := res.Messages == int64(msgs) && carried == want
			return fmt.Sprintf("= %d", msgs), fmt.Sprintf("k*n, k = %d; ids carried %d, k*n(n+1)/2 = %d", k, carried, want), ok, "not k*n, or wrong sizes"
		}
	}
	return t, err
}

// exact judges a count the theory gives exactly.
func exact(want int64, formula string) func(sim.Result) (string, string, bool, string) {
	return func(res sim.Result) (string, string, bool, string) {
		return fmt.Sprintf("= %d", want), formula, res.Messages == want, "not the exact count"
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
