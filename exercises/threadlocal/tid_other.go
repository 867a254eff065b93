//go:build !linux

package threadlocal

// threadID is unknown off Linux.
func threadID() int { return -1 }
