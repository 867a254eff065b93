package falseshare

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"ringlab/exercises/internal/lesson"
)

const explanation = `false-sharing: two counters on one cache line (the course chapter on concurrency, "false sharing").

What to observe:
  - Two goroutines each increment their OWN counter; nothing is shared, so
    no lock is needed. Yet "packed" (counters side by side) is several times
    slower than "padded" (counters 128 bytes apart).
  - Caches move memory in lines of 64 bytes. An atomic add needs its line
    exclusively, so while both counters share a line the line bounces
    between the two cores on every increment. Padding puts each counter on
    its own line (128 bytes, because some CPUs fetch lines in pairs).
  - The ratio is a measurement: it depends on the CPU, on whether the two
    goroutines really run on two cores (GOMAXPROCS >= 2), and on the load.
`

// Limits on the flags.
const (
	maxN      = 10_000_000_000
	maxRounds = 20
)

// Command returns the `exercises false-sharing` command.
func Command() *cli.Command {
	return lesson.Command(&cli.Command{
		Name:      "false-sharing",
		Usage:     "two goroutines, two counters: on one cache line vs padded apart",
		UsageText: "ringlab exercises false-sharing [--n 20000000] [--rounds 3] [--explain]\n\nExample:\n   ringlab exercises false-sharing --n 50000000",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "n", Value: 20_000_000, Usage: fmt.Sprintf("increments per goroutine (1..%d)", maxN)},
			&cli.IntFlag{Name: "rounds", Value: 3, Usage: fmt.Sprintf("timed rounds of each layout; the median is reported (1..%d)", maxRounds)},
		},
	}, explanation, action)
}

func action(c *cli.Context) error {
	n, err := lesson.Int(c, "n", 1, maxN)
	if err != nil {
		return err
	}
	rounds, err := lesson.Int(c, "rounds", 1, maxRounds)
	if err != nil {
		return err
	}
	if runtime.GOMAXPROCS(0) < 2 {
		fmt.Fprintf(c.App.ErrWriter, "note: GOMAXPROCS=%d: the two goroutines cannot run at once, so expect a ratio near 1\n", runtime.GOMAXPROCS(0))
	}
	w := c.App.Writer
	fmt.Fprintf(w, "2 goroutines x %d increments each (atomic add), median of %d rounds, on %d CPUs:\n", n, rounds, runtime.GOMAXPROCS(0))
	medians := map[string]time.Duration{}
	for _, impl := range []string{ImplPacked, ImplPadded} {
		times := make([]time.Duration, 0, rounds)
		for range rounds {
			res, err := Run(c.Context, impl, n)
			if err != nil {
				return err
			}
			if res.Interrupted || c.Context.Err() != nil {
				if len(times) > 0 {
					slices.Sort(times)
					med := times[len(times)/2]
					fmt.Fprintf(w, "  %-6s %-40s %12v  %6.2f ns/increment (median of the %d of %d rounds finished)\n",
						impl, layout(impl), med.Round(time.Microsecond), float64(med.Nanoseconds())/float64(n), len(times), rounds)
				}
				fmt.Fprintf(w, "interrupted in round %d of %s, after %d and %d of %d increments\n", len(times)+1, impl, res.A, res.B, n)
				return c.Context.Err()
			}
			if res.A != uint64(n) || res.B != uint64(n) {
				return fmt.Errorf("%s: counters ended at %d and %d, want %d", impl, res.A, res.B, n)
			}
			times = append(times, res.Elapsed)
		}
		slices.Sort(times)
		med := times[len(times)/2]
		medians[impl] = med
		fmt.Fprintf(w, "  %-6s %-40s %12v  %6.2f ns/increment\n", impl, layout(impl), med.Round(time.Microsecond), float64(med.Nanoseconds())/float64(n))
	}
	ratio := float64(medians[ImplPacked]) / float64(max(medians[ImplPadded], 1))
	fmt.Fprintf(w, "packed/padded time ratio = %.1f. This is a measurement: it varies from run to run and from CPU to CPU.\n", ratio)
	if ratio < 1.5 {
		fmt.Fprintln(w, "No clear slowdown this run: other work on the machine may have kept the two goroutines from running at the same time. Run it again on an idle machine.")
	}
	return nil
}

func layout(impl string) string {
	if impl == ImplPacked {
		return "(A and B 8 bytes apart, one 64-byte line)"
	}
	return fmt.Sprintf("(A and B %d bytes apart, separate lines)", cacheLinePad)
}
