package scaffold_test

import (
	"fmt"
	"maps"
	"slices"

	"ringlab/engine/scaffold"
)

// The files of a new mutual-exclusion algorithm's skeleton, and a name
// that cannot name a package.
func ExampleFiles() {
	files, _ := scaffold.Files("mutex", "mylock")
	fmt.Println(slices.Sorted(maps.Keys(files)))
	_, err := scaffold.Files("mutex", "my-lock")
	fmt.Println(err)
	// Output:
	// [mylock.go mylock_test.go]
	// "my-lock" is not a package name: want lower-case letters and digits, a letter first, at most 32
}
