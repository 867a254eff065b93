package scaffold_test

import (
	"fmt"

	"ringlab/engine/scaffold"
)

// NAME gives the package's name: its words without hyphens. A NAME that
// gives a Go keyword is refused.
func ExamplePackageName() {
	fmt.Println(scaffold.PackageName("suzuki-kasami"))
	_, err := scaffold.PackageName("fu-nc")
	fmt.Println(err)
	// Output:
	// suzukikasami <nil>
	// "fu-nc" gives package func, a Go keyword: give another name
}
