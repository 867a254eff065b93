package grade

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestClippedIsClip: an output cut as it grows reads as the whole output
// cut at the end would, for writes of every size across the bound, and
// keeps at most 2·maxOutput bytes.
func TestClippedIsClip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		var c clipped
		var whole strings.Builder
		for whole.Len() < 3*maxOutput && r.IntN(40) > 0 {
			size := r.IntN(maxOutput / 8)
			if r.IntN(10) == 0 {
				size = r.IntN(2 * maxOutput)
			}
			s := strings.Repeat(string(rune('a'+r.IntN(26))), size) + "\n"
			c.WriteString(s)
			whole.WriteString(s)
			if len(c.head)+len(c.tail) > 2*maxOutput {
				t.Fatalf("trial %d: %d bytes kept", trial, len(c.head)+len(c.tail))
			}
		}
		if got, want := c.String(), clip(whole.String()); got != want {
			t.Fatalf("trial %d (%d bytes): clipped gives %d bytes, clip %d", trial, whole.Len(), len(got), len(want))
		}
	}
}
