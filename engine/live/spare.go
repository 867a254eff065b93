package live

// Inbox storage, a speed trick (the plain version is one edit away, below).
//
// A node's goroutine that empties its node's inbox keeps the queue's
// storage (take), and gives it to the next idle node it sends to (put),
// instead of that node's inbox growing storage of its own. So an idle node
// holds no storage, a node readied by a node's goroutine gets storage
// without an allocation, and that storage was written a moment ago on the
// same processor. And the inboxes of the nodes that start with a scripted
// action are cut from one allocation (store), with room for the first
// messages sent to them before their turn comes.
//
// The plain version: keep drops b, spare returns nil, and newStore
// returns nil (every inbox grows its own storage from one item, and keeps
// it). Measured with
//
//	go test -c -o cr.test ./election/changroberts
//	./cr.test -test.run '^$' -test.bench 'Election/^impl=(baseline|live)$/nodes=100000$' -test.benchtime 5x
//
// five times, interleaved with the plain version, on a busy 2-core VM:
// 282,000 allocations per run against 510,000 (100,000 nodes), 444–1,160
// ms/op (median 700) against 674–1,466 (median 1,163); impl=baseline
// took 441–1,333 in the same rounds.

// spares bounds how many emptied queues a worker keeps, and spareCap the
// size of one it keeps: a queue that grew large once goes to the garbage
// collector instead of living on in another inbox.
const (
	spares   = 16
	spareCap = 64
)

// keep takes b, the storage of an inbox just emptied, for a later spare.
func (w *worker) keep(b []envelope) {
	if cap(b) == 0 || cap(b) > spareCap || len(w.spares) == spares {
		return
	}
	w.spares = append(w.spares, b[:0])
}

// spare returns empty storage for an inbox, or nil.
func (w *worker) spare() []envelope {
	n := len(w.spares)
	if n == 0 {
		return nil
	}
	b := w.spares[n-1]
	w.spares[n-1] = nil
	w.spares = w.spares[:n-1]
	return b
}

// startCap is the room for items that the inbox of a node with a scripted
// action at the start gets: the action, and the first messages sent to it
// before its turn comes.
const startCap = 4

// store hands out the inbox storage of the nodes that start with an
// action, all cut from one allocation.
type store []envelope

func newStore(n int) store { return make(store, n*startCap) }

// next returns empty storage for startCap items, or nil when the store is
// used up.
func (s *store) next() []envelope {
	if len(*s) < startCap {
		return nil
	}
	b := (*s)[:0:startCap]
	*s = (*s)[startCap:]
	return b
}
