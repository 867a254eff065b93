package statespace

import "context"

// SearchCheckingDepths searches cfg and, before it lets its tables go,
// compares every state's depth as the records give it with the length of
// the path its parent links rebuild (which the 2-byte depth a state
// formerly kept always equalled): it returns the search's result, the
// states compared, the depths the records keep because the state's
// number does not imply them, and the first state whose two differ (-1:
// none).
func SearchCheckingDepths(cfg Config) (res Result, states, odd int, bad int32, err error) {
	bad = -1
	searched = func(s *searcher) {
		states, odd = s.recs.Len(), s.recs.Odd()
		for i := range int32(states) {
			if int(s.recs.DepthOf(i)) != len(s.path(i)) {
				bad = i
				return
			}
		}
	}
	defer func() { searched = nil }()
	res, err = Search(context.Background(), cfg)
	return res, states, odd, bad, err
}
