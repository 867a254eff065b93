//go:build !amd64

package sim

import "unsafe"

// prefetch is a no-op where there is no assembly for it.
func prefetch(p unsafe.Pointer) {}
