//go:build race

package raceguard

// Enabled reports whether this binary was built with -race.
const Enabled = true
