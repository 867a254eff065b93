package enginetest

import "io"

// SetServeOut makes the explorer announce itself on w, for a test, and
// returns what it wrote to before.
func SetServeOut(w io.Writer) io.Writer {
	old := serveOut
	serveOut = w
	return old
}
