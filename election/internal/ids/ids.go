// Package ids checks the process ids that the election packages on any
// group, ring or graph share (bully, franklin, yoyo): each id is positive,
// and no two nodes have the same one, since the highest (or lowest) id wins.
package ids

import "fmt"

// Check returns an error naming the first node whose id is below 1 or
// already given to an earlier node; algo prefixes the message.
func Check(algo string, ids []int) error {
	seen := make(map[int]int, len(ids))
	for i, id := range ids {
		if id < 1 {
			return fmt.Errorf("%s: node %d has id %d; ids must be positive (1 or more)", algo, i+1, id)
		}
		if j, dup := seen[id]; dup {
			return fmt.Errorf("%s: id %d is given to nodes %d and %d; ids must be unique", algo, id, j, i+1)
		}
		seen[id] = i + 1
	}
	return nil
}
