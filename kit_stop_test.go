package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
)

// kitPoints is the worked assignment's points file by its absolute path:
// the stop test runs each command in a directory of its own.
func kitPoints() string {
	p, _ := filepath.Abs(filepath.Join("examples", "assignment", "points")) // Abs fails only without a working directory
	return p
}

// bigTestStream is go test -json output far longer than grade reads
// before the stop test's signal lands: 64 MiB of one test's output lines.
func bigTestStream(*testing.T) []byte {
	var b bytes.Buffer
	b.WriteString(`{"Action":"run","Package":"ex/ricart","Test":"TestVet"}` + "\n")
	for i := 0; b.Len() < 64<<20; i++ {
		fmt.Fprintf(&b, `{"Action":"output","Package":"ex/ricart","Test":"TestVet","Output":"line %d of a test that writes a lot\n"}`+"\n", i)
	}
	return b.Bytes()
}
