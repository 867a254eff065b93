package quiz

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// form is how a reply is compared with an answer.
type form uint8

const (
	formInt   form = iota // a whole number: a count, a clock, a node's id
	formYesNo             // yes or no
	formFloat             // a probability: within 0.5% of the answer
)

// Normalize is a reply as the quiz compares it: lower case, without
// spaces, and with a decimal comma made a point. Then, for a whole number,
// a leading "node", "nó", "id", "process", "processo", "p" or "n" is
// dropped ("P3", "node 3", "N3", "id 3" and "3" are one reply); for yes or
// no, "y", "sim", "s" and "true" mean yes, "n", "não", "nao" and "false"
// mean no; for a probability, a trailing "%" divides by 100, and a reply
// within 0.5% of the answer is right (the answer shows three significant
// digits).
func Normalize(reply string) string {
	s := strings.ToLower(strings.Join(strings.Fields(reply), ""))
	return strings.ReplaceAll(s, ",", ".")
}

// numberReply is a whole-number reply, with the prefixes Normalize drops.
var numberReply = regexp.MustCompile(`^(?:node|nó|id|processo|process|p|n)?\.?(-?[0-9]+)$`)

// asInt reads a whole-number reply.
func asInt(reply string) (int64, bool) {
	m := numberReply.FindStringSubmatch(Normalize(reply))
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseInt(m[1], 10, 64)
	return v, err == nil
}

// asYesNo reads a yes-or-no reply.
func asYesNo(reply string) (yes, ok bool) {
	switch Normalize(reply) {
	case "yes", "y", "sim", "s", "true":
		return true, true
	case "no", "n", "não", "nao", "false":
		return false, true
	}
	return false, false
}

// asFloat reads a probability reply.
func asFloat(reply string) (float64, bool) {
	s := Normalize(reply)
	scale := 1.0
	if t, ok := strings.CutSuffix(s, "%"); ok {
		s, scale = t, 0.01
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v * scale, true
}

// same reports whether reply and answer (canonical) are the same in form f.
func (f form) same(reply, answer string) bool {
	switch f {
	case formYesNo:
		r, ok1 := asYesNo(reply)
		a, ok2 := asYesNo(answer)
		return ok1 && ok2 && r == a
	case formFloat:
		r, ok1 := asFloat(reply)
		a, ok2 := asFloat(answer)
		return ok1 && ok2 && math.Abs(r-a) <= 0.005*math.Abs(a)+1e-12
	default:
		r, ok1 := asInt(reply)
		a, ok2 := asInt(answer)
		return ok1 && ok2 && r == a
	}
}
