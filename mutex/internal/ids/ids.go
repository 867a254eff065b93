// Package ids checks the node count and optional algorithm ids that the
// mutual-exclusion packages share (Ricart-Agrawala and Lamport break ties by
// id, so ids must be distinct).
package ids

import "fmt"

// Check validates n nodes (1..maxNodes) and, when ids is not nil, one
// distinct id >= 0 per node. algo prefixes the messages.
func Check(algo string, n, maxNodes int, ids []int) error {
	if n < 1 || n > maxNodes {
		return fmt.Errorf("%s: the number of nodes must be 1..%d, got %d", algo, maxNodes, n)
	}
	if ids == nil {
		return nil
	}
	if len(ids) != n {
		return fmt.Errorf("%s: %d ids given for %d nodes: give one id per node", algo, len(ids), n)
	}
	seen := make(map[int]bool, len(ids))
	for _, id := range ids {
		if id < 0 {
			return fmt.Errorf("%s: ids must be >= 0, got %d", algo, id)
		}
		if seen[id] {
			return fmt.Errorf("%s: id %d appears twice: ids must be distinct", algo, id)
		}
		seen[id] = true
	}
	return nil
}
