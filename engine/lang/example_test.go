package lang_test

import (
	"fmt"

	"ringlab/engine/lang"
)

// A verdict line in both languages: the key's words, the property's name
// and the figures.
func Example() {
	for _, s := range []string{"en", "pt"} {
		l, err := lang.Parse(s)
		if err != nil {
			panic(err)
		}
		fmt.Println(l.Tag()+":", l.T("check.proved", l.Property("mutual exclusion"), 43, "", ""))
	}
	_, err := lang.Parse("fr")
	fmt.Println(err)
	// Output:
	// en: proved: mutual exclusion, over all 43 states
	// pt-BR: provado: exclusão mútua, em todos os 43 estados
	// unknown language "fr" (want en or pt (pt-BR))
}
