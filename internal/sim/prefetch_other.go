//go:build !amd64

package sim

// prefetch3 is a no-op where there is no assembly for it.
func prefetch3(a, b, c uintptr) {}
