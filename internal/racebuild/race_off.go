//go:build !race

package racebuild

// Enabled reports whether this binary was built with -race.
const Enabled = false
