package hugemem

import "testing"

// Make is make: the length asked for, zeroed, writable, below and past the
// size that asks for huge pages (whether the OS grants them is its call).
func TestMakeIsMake(t *testing.T) {
	for _, n := range []int{0, 1, 1000, hugeArray/8 - 1, hugeArray / 8, 3*hugeArray/8 + 5} {
		a := Make[int64](n)
		if len(a) != n {
			t.Fatalf("Make(%d) has length %d", n, len(a))
		}
		for i := range a {
			if a[i] != 0 {
				t.Fatalf("Make(%d)[%d] = %d, want 0", n, i, a[i])
			}
			a[i] = int64(i)
		}
		for i := range a {
			if a[i] != int64(i) {
				t.Fatalf("Make(%d)[%d] lost its value", n, i)
			}
		}
	}
}
