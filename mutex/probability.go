package mutex

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
	"ringlab/mutex/kit"
	"ringlab/mutex/quorum"
)

func probabilityCommand() *cli.Command {
	return &cli.Command{
		Name:  "quorum-probability",
		Usage: "the chance that amnesia breaks a quorum: the formula, and a Monte Carlo estimate",
		UsageText: "ringlab mutex quorum-probability [--n 32] [--m 24] [--p 0.0001] [--monte-carlo TRIALS [--seed S]]\n\n" +
			"Examples:\n   ringlab mutex quorum-probability --n 32 --m 24 --p 0.0001\n" +
			"   ringlab mutex quorum-probability --n 5 --m 3 --p 0.3 --monte-carlo 10000",
		Description: "P_v = sum over k = 2m-n .. m of C(m,k) P^k (1-P)^(m-k): at least 2m-n of the m coordinators\n" +
			"that voted for the first participant crash and recover (forgetting their vote) within the\n" +
			"window, so that the second can collect m votes. --monte-carlo simulates that: one trial is\n" +
			"one simulator run of the quorum protocol (see the README).",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "n", Value: 32, Usage: "coordinators (1..1024; 1..64 with --monte-carlo)"},
			&cli.IntFlag{Name: "m", Value: 24, Usage: "quorum, n/2 < m <= n"},
			&cli.Float64Flag{Name: "p", Value: 0.0001, Usage: "chance that one coordinator crashes and recovers within the window, in [0,1]"},
			&cli.IntFlag{Name: "monte-carlo", Usage: "simulated trials (0 = formula only; up to 1000000)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the trials' crash draws"},
		},
		Action: probabilityAction,
	}
}

func probabilityAction(c *cli.Context) error {
	if err := cliutil.NoArgs(c); err != nil {
		return err
	}
	n, m, p, trials := c.Int("n"), c.Int("m"), c.Float64("p"), c.Int("monte-carlo")
	switch {
	case n < 1 || n > maxNodes:
		return cliutil.Usagef("--n must be between 1 and %d, got %d", maxNodes, n)
	case quorum.CheckQuorum(n, m) != nil:
		return cliutil.Usagef("--m: %v", quorum.CheckQuorum(n, m))
	case !(p >= 0 && p <= 1):
		return cliutil.Usagef("--p must be a probability in [0,1], got %v", p)
	case trials < 0 || trials > 1_000_000:
		return cliutil.Usagef("--monte-carlo must be between 0 and 1000000 trials, got %d", trials)
	case trials > 0 && n > 64:
		return cliutil.Usagef("--n must be at most 64 with --monte-carlo, got %d", n)
	}
	w := c.App.Writer
	pv := quorum.ViolationProbability(n, m, p)
	fmt.Fprintf(w, "n = %d coordinators, quorum m = %d, P = %g (one coordinator crashes and recovers within the window)\n", n, m, p)
	fmt.Fprintf(w, "P_v = sum over k = %d..%d of C(%d,k) P^k (1-P)^(%d-k) = %.3g\n", 2*m-n, m, m, m, pv)
	if trials == 0 {
		return nil
	}
	bad, done, err := monteCarlo(c.Context, n, m, p, trials, c.Uint64("seed"))
	if err != nil {
		return err
	}
	if done < trials { // interrupted: the estimate over the trials run so far
		if done == 0 {
			fmt.Fprintf(w, "Monte Carlo: interrupted after 0 of %d trials: no estimate\n", trials)
			return c.Context.Err()
		}
		lo, hi := wilson(bad, done)
		fmt.Fprintf(w, "Monte Carlo: interrupted after %d of %d trials: %d violated mutual exclusion (seed %d): %.4f, Wilson 95%% interval [%.4f, %.4f]; formula inside: %s\n",
			done, trials, bad, c.Uint64("seed"), float64(bad)/float64(done), lo, hi, inside(pv, lo, hi))
		return c.Context.Err()
	}
	est := float64(bad) / float64(trials)
	lo, hi := wilson(bad, trials)
	fmt.Fprintf(w, "Monte Carlo: %d of %d simulated runs violated mutual exclusion (seed %d): %.4f, Wilson 95%% interval [%.4f, %.4f]; formula inside: %s\n",
		bad, trials, c.Uint64("seed"), est, lo, hi, inside(pv, lo, hi))
	return nil
}

func inside(pv, lo, hi float64) string {
	if pv < lo || pv > hi {
		return "no"
	}
	return "yes"
}

// wilson is the Wilson score 95% interval for k successes in n trials.
func wilson(k, n int) (lo, hi float64) {
	const z = 1.959963984540054
	ph, nf := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nf
	center := (ph + z*z/(2*nf)) / den
	half := z / den * math.Sqrt(ph*(1-ph)/nf+z*z/(4*nf*nf))
	return max(center-half, 0), min(center+half, 1)
}

// monteCarlo counts the trials, out of `trials`, in which the second
// participant enters while the first holds the CS.
//
// One trial, on n coordinators and participants P1, P2: P1 asks
// at t=0; its requests to coordinators m+1..n are slow (they arrive at
// t=101), so exactly coordinators 1..m vote for it (t=1), and it enters at
// t=2 and stays 20 ticks. Each of those m coordinators, independently with
// probability p (drawn from the trial's seed), crashes at t=3 and restarts
// with amnesia at t=4. P2 asks at t=5: the amnesiac coordinators and
// the n-m slow ones vote for it at once, the others are busy. So P2
// enters while P1 is inside exactly when k >= 2m-n coordinators forgot:
// the event whose probability is P_v.
//
// It stops before the next trial once ctx is done, and returns how many
// trials it ran in full.
func monteCarlo(ctx context.Context, n, m int, p float64, trials int, seed uint64) (bad, done int, err error) {
	pl, err := quorumPlan(quorum.Config{Coordinators: n, M: m, Participants: 2})
	if err != nil {
		return 0, 0, err
	}
	var slow []sim.Slow
	for c := m + 1; c <= n; c++ {
		slow = append(slow, sim.Slow{Node: c, Extra: 100, From: 0, Until: 1})
	}
	for t := range trials {
		if ctx.Err() != nil {
			return bad, t, nil
		}
		rng := rand.New(rand.NewPCG(seed, uint64(t)))
		script := []node.Action{req(0, n+1), req(5, n+2)}
		for c := 1; c <= m; c++ {
			if rng.Float64() < p {
				script = append(script, crash(3, c), node.Action{At: 4, Node: c, Cmd: node.CmdRestart})
			}
		}
		w := kit.Workload{CS: 20, Script: script}
		r := w.Reactor(pl.nodes)
		set := check.NewSet(&check.MutualExclusion{})
		sys := engine.System{Nodes: pl.nodes, Factory: pl.factory, Script: script, Workload: engine.ReactFunc(r.React)}
		rt := sim.Runtime{Seed: 1, Faults: sim.Faults{Slow: slow}, Stop: set.Violated}
		_, err := rt.Run(context.Background(), sys, func(e *trace.Event) { set.Observe(e) })
		if err != nil {
			return 0, t, err
		}
		if set.Violated() {
			bad++
		}
	}
	return bad, trials, nil
}
