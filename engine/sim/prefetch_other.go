//go:build !amd64

package sim

// prefetch2 is a no-op where there is no assembly for it.
func prefetch2(a, b uintptr) {}
