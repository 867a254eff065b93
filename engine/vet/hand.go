package vet

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"ringlab/engine/internal/canon"
	"ringlab/engine/node"
)

// checkHand checks a node's own Clone and AppendKey (a node.Snapshot,
// the fast path) against the copy and the key the engine derives from
// its value (canon.AppendState), on a state the search met:
//
//   - a clone has its original's value (Clone check);
//   - states of one value have one key (key check): a key that depends on
//     something besides the value (a map's order, a slice's capacity, an
//     address) splits one state in several.
//
// A key that leaves out a field is not reported here: the key check
// reports it where two states with one key and a different value in the
// field behave differently, naming the field (differing); where they do
// not, leaving it out is what makes the key good (a count no step reads,
// a value the state no longer needs). A node whose value canon cannot
// encode (a func field not tagged fixed) is not checked against it.
func (l *linter) checkHand(i int, st node.Node) {
	snap, ok := st.(node.Snapshot)
	if !ok || len(l.hand) > 0 {
		return
	}
	enc, err := canon.AppendState(nil, st)
	if err != nil {
		return
	}
	c := snap.Clone()
	if !bytes.Equal(enc, mustState(c)) {
		l.hand = append(l.hand, Finding{Check: CheckClone, Node: i, Method: "Clone",
			Detail: fmt.Sprintf("a clone of the %T differs from its original%s: Clone must copy the whole state", innermost(st), differing(st, c))})
		return
	}
	if f := fixedDiffering(st, c); f != "" {
		l.hand = append(l.hand, Finding{Check: CheckClone, Node: i, Method: "Clone",
			Detail: fmt.Sprintf("a clone of the %T differs from its original in %s, fixed when the node is built: Clone must copy it too", innermost(st), f)})
		return
	}
	if l.byValue == nil {
		l.byValue = map[string]string{}
	}
	id := strconv.Itoa(i) + "\x00" + string(enc)
	key := string(snap.AppendKey(nil))
	prev, ok := l.byValue[id]
	if !ok {
		l.byValue[id] = key
		return
	}
	if prev != key {
		l.hand = append(l.hand, Finding{Check: CheckKey, Node: i, Method: "AppendKey",
			Detail: fmt.Sprintf("two states of one value (%s) have the keys %s and %s: the key depends on something besides the state (a map's order, a slice's capacity, an address), which splits one state in several",
				stateText(st), keyText(prev), keyText(key))})
	}
}

// fixedDiffering names the first field tagged fixed (left out of the
// state's encoding, canon.Fixed) in which a and b differ, or "" if none
// does or the values cannot be encoded whole (a func in one of them).
func fixedDiffering(a, b node.Node) string {
	fa, err1 := canon.Fields(innermost(a), false)
	fb, err2 := canon.Fields(innermost(b), false)
	sa, err3 := canon.StateFields(innermost(a))
	if err1 != nil || err2 != nil || err3 != nil || len(fa) != len(fb) {
		return ""
	}
	state := map[string]bool{}
	for _, f := range sa {
		state[f.Name] = true
	}
	for k := range fa {
		if fa[k].Name != "" && !state[fa[k].Name] && !bytes.Equal(fa[k].Enc, fb[k].Enc) {
			return "field " + fa[k].Name
		}
	}
	return ""
}

// mustState is nd's derived encoding, nil if it has none.
func mustState(nd node.Node) []byte {
	b, _ := canon.AppendState(nil, nd)
	return b
}

// differing names the fields in which a and b differ, as " (field X,
// Y)", or "" where it cannot tell.
func differing(a, b node.Node) string {
	fa, err1 := canon.StateFields(innermost(a))
	fb, err2 := canon.StateFields(innermost(b))
	if err1 != nil || err2 != nil || len(fa) != len(fb) {
		return ""
	}
	var names []string
	for k := range fa {
		if fa[k].Name != "" && !bytes.Equal(fa[k].Enc, fb[k].Enc) {
			names = append(names, fa[k].Name)
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return " (field " + names[0] + ")"
	}
	return " (fields " + strings.Join(names, ", ") + ")"
}
