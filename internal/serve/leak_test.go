package serve

import "go.uber.org/goleak"

// leakOptions are the goroutines goleak may find at the end: none of ours.
func leakOptions() []goleak.Option { return nil }
