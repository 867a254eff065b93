package grade_test

import (
	"fmt"
	"strings"

	"ringlab/engine/grade"
)

// Grading one passing and one failing test of a go test -json stream.
func ExampleGrade() {
	ps, _ := grade.ParsePoints(strings.NewReader("TestVet 1\nTestHiddenExhaust 3 hidden\n"))
	s, _ := grade.ReadStream(strings.NewReader(`{"Action":"pass","Package":"ex/ricart","Test":"TestVet"}
{"Action":"output","Package":"ex/ricart","Test":"TestHiddenExhaust","Output":"    mutual exclusion violated\n"}
{"Action":"fail","Package":"ex/ricart","Test":"TestHiddenExhaust"}
`))
	res := grade.Grade(s, ps)
	fmt.Println("score", res.Score)
	for _, t := range res.Tests {
		fmt.Printf("%s %s %v/%v %s: %q\n", t.Name, t.Status, t.Score, t.MaxScore, t.Visibility, t.Output)
	}
	// Output:
	// score 1
	// TestVet passed 1/1 visible: ""
	// TestHiddenExhaust failed 0/3 hidden: "    mutual exclusion violated\n"
}
