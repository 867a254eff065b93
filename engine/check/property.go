package check

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// PropertyName is the ID of the property a user names on the command
// line, in the form Property.ID gives: lower case, words
// separated by one space. "mutual-exclusion", "Mutual_Exclusion" and
// "mutual exclusion" all name "mutual exclusion". Letters and digits make
// words; '-', '_' and blanks separate them; any other character, or no
// word at all, is an error (a name that could only be a typo).
func PropertyName(s string) (ID, error) {
	var words []string
	var w strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			w.WriteRune(unicode.ToLower(r))
		case r == '-' || r == '_' || r == ' ' || r == '\t':
			if w.Len() > 0 {
				words = append(words, w.String())
				w.Reset()
			}
		default:
			return "", fmt.Errorf("%q is not a property name (letters and digits, words separated by '-', '_' or blanks)", s)
		}
	}
	if w.Len() > 0 {
		words = append(words, w.String())
	}
	if len(words) == 0 {
		return "", fmt.Errorf("%q is not a property name: it is empty", s)
	}
	return ID(strings.Join(words, " ")), nil
}

// PropertyFlag spells property p as the --property flag shows it:
// "mutual-exclusion".
func PropertyFlag(p ID) string { return strings.ReplaceAll(string(p), " ", "-") }

// Properties lists the distinct properties of cs, in their order, as the
// --property flag spells them.
func Properties(cs []Property) []string {
	var out []string
	for _, c := range cs {
		if p := PropertyFlag(c.ID()); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// Select returns the properties of cs that one of names names (see
// PropertyName), in the order of cs. No names selects every property.
// A name that names no property of cs is an error that lists them: every
// command with a --property flag reports it as the flag's error.
func Select(cs []Property, names []string) ([]Property, error) {
	if len(names) == 0 {
		return cs, nil
	}
	want := map[ID]bool{}
	for _, n := range names {
		p, err := PropertyName(n)
		if err == nil && !slices.ContainsFunc(cs, func(c Property) bool { return c.ID() == p }) {
			err = fmt.Errorf("no property %q here", n)
		}
		if err != nil {
			return nil, fmt.Errorf("%v; want one of: %s", err, strings.Join(Properties(cs), ", "))
		}
		want[p] = true
	}
	return slices.DeleteFunc(slices.Clone(cs), func(c Property) bool { return !want[c.ID()] }), nil
}
