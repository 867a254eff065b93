// Run:     go test -run '^$' -bench FalseSharing -count 10 ./exercises/falseshare > new.txt
// Compare: benchstat -col /impl new.txt (packed vs padded from one run), or
// benchstat old.txt new.txt across changes (go install golang.org/x/perf/cmd/benchstat@latest).
//
// Each op is one Run of two goroutines doing benchIncrements atomic adds each;
// ns/inc is the time per increment (per goroutine). impl=padded is the baseline.
package falseshare

import (
	"testing"
)

const benchIncrements = 100_000

func BenchmarkFalseSharing(b *testing.B) {
	for _, impl := range []string{ImplPacked, ImplPadded} {
		b.Run("impl="+impl, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Run(b.Context(), impl, benchIncrements); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchIncrements), "ns/inc")
		})
	}
}
