package statespace

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	"ringlab/engine/internal/canon"
	"ringlab/engine/internal/derive"
	"ringlab/engine/node"
)

// item is one message in flight. link is (from-1)*n + (to-1); id is the
// message's interned number (the interner holds the message itself).
type item struct {
	link uint32
	id   uint32
}

// state is one global state: every node, what the network holds, what the
// environment still has to say, and the fault budgets spent. A state is
// never changed once it is in the queue: a successor copies the slices it
// changes (copy on write), and shares the rest with its parent.
type state struct {
	// nodes holds every node's interned number (index i-1 is node i):
	// states share their nodes' objects, one per distinct node state
	// (interner.node).
	nodes   []uint32
	crashed uint64 // bit i-1: node i has crashed
	done    uint64 // bit i-1: node i has said Done (sticky until a restart)
	// pend is every live node's pending inputs, by node: its commands
	// (oldest first), then its timers (ascending ids).
	pend []pend
	// net is every message in flight, by link; on a link in the order
	// sent (FIFO) or sorted by rank (random). One slice, not one per link:
	// a state's size is what the BFS frontier holds by the million.
	net                      []item
	env                      uint32 // the environment's interned number + 1 (0: none)
	crashes, drops, restarts uint8  // faults spent
}

func (s *state) alive(i int) bool { return s.crashed&(1<<(i-1)) == 0 }

// pend is a pending input of a node: a command (kind pendCmd, val its
// interned number) or a timer (kind pendTimer, val its id).
type pend struct {
	node, kind uint8
	val        int32
}

const (
	pendCmd   = 0
	pendTimer = 1
)

// pendOf returns the range of node i's entries in s.pend.
func (s *state) pendOf(i int) (lo, hi int) {
	for lo < len(s.pend) && int(s.pend[lo].node) < i {
		lo++
	}
	hi = lo
	for hi < len(s.pend) && int(s.pend[hi].node) == i {
		hi++
	}
	return lo, hi
}

// shallow returns a copy of s sharing every slice's contents but its
// nodes; the caller copies a slice before changing it (own*).
func (s *state) shallow() *state {
	c := *s
	c.nodes = slices.Clone(s.nodes)
	return &c
}

// interner numbers the distinct messages of one search and ranks them by
// their canonical encoding (their order under the random policy, the same
// in every search, so that a path's labels replay).
type interner struct {
	ids   map[node.Msg]uint32 // messages whose == is identity (canon.EqualIsSame)
	byKey map[string]uint32   // every message, by its canonical encoding
	rank  []string            // id -> canonical encoding
	msgs  []node.Msg          // id -> the message
	cmdID map[command]int
	cmds  []command // interned number -> command
	// nodeID numbers the distinct node states by node index and key;
	// nodeObj holds each one's object, never stepped again (a step clones
	// it first), and nodeKey the key it was interned under.
	nodeID map[string]uint32
	// ops copies and keys the node states (Config.Derived).
	ops     derive.Ops
	nodeObj []node.Node
	nodeKey []string
	// within is, by node number, whether the state meets Config.Within.
	within []bool
	inside func(i int, nd node.Node) bool
	// envID numbers the distinct environments by key; envObj holds each
	// one (never changed: a step clones it first).
	envID  map[string]uint32
	envObj []*env
	// env0 is the initial state's environment (0: none), once env0Set.
	env0    uint32
	env0Set bool
	// mu, when set, makes the interner safe for the workers of a
	// parallel search (par.go): reads take it shared, new entries
	// exclusive. Nil (one goroutine) costs a branch a call.
	mu *sync.RWMutex
}

// The readers below are how a machine reads what was interned, so that
// a shared interner (mu set) is read under its lock.

func (in *interner) nodeAt(id uint32) node.Node {
	if in.mu != nil {
		in.mu.RLock()
		defer in.mu.RUnlock()
	}
	return in.nodeObj[id]
}

func (in *interner) keyAt(id uint32) string {
	if in.mu != nil {
		in.mu.RLock()
		defer in.mu.RUnlock()
	}
	return in.nodeKey[id]
}

func (in *interner) msgAt(id uint32) node.Msg {
	if in.mu != nil {
		in.mu.RLock()
		defer in.mu.RUnlock()
	}
	return in.msgs[id]
}

func (in *interner) cmdAt(v int32) command {
	if in.mu != nil {
		in.mu.RLock()
		defer in.mu.RUnlock()
	}
	return in.cmds[v]
}

func (in *interner) envAt(id uint32) *env {
	if in.mu != nil {
		in.mu.RLock()
		defer in.mu.RUnlock()
	}
	return in.envObj[id-1]
}

func (in *interner) isWithin(id uint32) bool {
	if in.mu != nil {
		in.mu.RLock()
		defer in.mu.RUnlock()
	}
	return in.within[id]
}

func newInterner() *interner {
	return &interner{ids: map[node.Msg]uint32{}, byKey: map[string]uint32{}, cmdID: map[command]int{},
		nodeID: map[string]uint32{}, envID: map[string]uint32{}}
}

// env returns the number (+1) of the environment equal to e, whose key
// is k (nil: computed here): states share their environments as they
// share their nodes'. A step only ever changes a clone.
func (in *interner) env(e *env, k []byte) uint32 {
	if k == nil {
		k = e.appendKey(nil)
	}
	if in.mu != nil {
		in.mu.RLock()
		id, ok := in.envID[string(k)]
		in.mu.RUnlock()
		if ok {
			return id
		}
		in.mu.Lock()
		defer in.mu.Unlock()
	}
	if id, ok := in.envID[string(k)]; ok {
		return id
	}
	in.envObj = append(in.envObj, e)
	id := uint32(len(in.envObj))
	in.envID[string(k)] = id
	return id
}

// nodeBuf returns the interned number of node i's state nd: the number of
// an equal state (same index, same key) met before, or a new one, nd's.
// A state's nodes are numbers, so a million states that share a node
// state share one object, and the state's key holds 4 bytes per node.
// *kb is the scratch for the key: the machine's own, so that machines
// may share the interner.
func (in *interner) nodeBuf(i int, nd node.Node, kb *[]byte) uint32 {
	*kb = in.ops.AppendKey(append((*kb)[:0], byte(i)), nd)
	if in.mu != nil {
		in.mu.RLock()
		id, ok := in.nodeID[string(*kb)]
		in.mu.RUnlock()
		if ok {
			return id
		}
		in.mu.Lock()
		defer in.mu.Unlock()
	}
	if id, ok := in.nodeID[string(*kb)]; ok {
		return id
	}
	id := uint32(len(in.nodeObj))
	k := string(*kb)
	in.nodeID[k] = id
	in.nodeObj = append(in.nodeObj, nd)
	in.nodeKey = append(in.nodeKey, k)
	in.within = append(in.within, in.inside == nil || in.inside(i, nd))
	return id
}

// id returns m's interned number: the number of the message with m's
// canonical encoding (engine/internal/canon: its type and every field,
// never its printed text), met before or new. A message of a type whose
// == says "same value" (canon.EqualIsSame) is looked up by value first.
// It fails for a message canon cannot encode (a func or chan field).
func (in *interner) id(m node.Msg) (uint32, error) {
	byValue := isComparable(m)
	if byValue && in.mu != nil {
		in.mu.RLock()
		id, ok := in.ids[m]
		in.mu.RUnlock()
		if ok {
			return id, nil
		}
	} else if byValue {
		if id, ok := in.ids[m]; ok {
			return id, nil
		}
	}
	k, err := canon.Append(nil, m)
	if err != nil {
		return 0, fmt.Errorf("message %s (%T) cannot be told apart from others: %v", m.Type(), m, err)
	}
	if in.mu != nil {
		in.mu.Lock()
		defer in.mu.Unlock()
	}
	id, ok := in.byKey[string(k)]
	if !ok {
		id = uint32(len(in.rank))
		in.rank = append(in.rank, string(k))
		in.msgs = append(in.msgs, m)
		in.byKey[string(k)] = id
	}
	if byValue {
		in.ids[m] = id
	}
	return id, nil
}

// command is a pending command and its parameter (node.Action.Arg).
type command struct {
	cmd node.Cmd
	arg int
}

func (in *interner) cmd(c command) int {
	if in.mu != nil {
		in.mu.Lock()
		defer in.mu.Unlock()
	}
	id, ok := in.cmdID[c]
	if !ok {
		id = len(in.cmdID)
		in.cmdID[c] = id
		in.cmds = append(in.cmds, c)
	}
	return id
}

// less orders two messages on a link under the random policy.
func (in *interner) compare(a, b item) int {
	if a.link != b.link {
		return cmp.Compare(a.link, b.link)
	}
	if a.id == b.id {
		return 0
	}
	if in.mu != nil {
		in.mu.RLock()
		defer in.mu.RUnlock()
	}
	return cmp.Compare(in.rank[a.id], in.rank[b.id])
}

// appendKey appends the canonical encoding of s, which decode reads back
// (node states and environments are interned, so their numbers say it all): the
// key of the visited set and the form in which the BFS queue holds s.
// Varints: a state of three Lamport nodes takes about 40 bytes.
func (s *state) appendKey(b []byte, in *interner) []byte {
	b = append(b, s.crashes, s.drops, s.restarts)
	for k, id := range s.nodes {
		if !s.alive(k + 1) {
			b = append(b, 0)
			continue
		}
		done := uint64(0)
		if s.done&(1<<k) != 0 {
			done = 1
		}
		b = binary.AppendUvarint(b, 2*uint64(id)+done+1)
	}
	b = binary.AppendUvarint(b, uint64(len(s.pend)))
	for _, p := range s.pend {
		b = binary.AppendVarint(append(b, p.node, p.kind), int64(p.val))
	}
	b = binary.AppendUvarint(b, uint64(len(s.net)))
	for _, it := range s.net {
		b = binary.AppendUvarint(binary.AppendUvarint(b, uint64(it.link)), uint64(it.id))
	}
	return binary.AppendUvarint(b, uint64(s.env))
}

// decode rebuilds a state of n nodes from its key (decodeInto).
func decode(b []byte, n int) *state {
	return decodeInto(&state{nodes: make([]uint32, n)}, b, nil, nil)
}

// decodeInto rebuilds in s, whose nodes has the right length, the state
// whose key is b. Its pending inputs and messages go into pr and nr
// (room of zero length) when they fit, else into slices of their own. A
// crashed node's number is 0 (it is never stepped; a restart builds a new
// node).
func decodeInto(s *state, b []byte, pr []pend, nr []item) *state {
	s.crashes, s.drops, s.restarts = b[0], b[1], b[2]
	b = b[3:]
	uv := func() uint64 {
		v, k := binary.Uvarint(b)
		b = b[k:]
		return v
	}
	for k := range s.nodes {
		v := uv()
		if v == 0 {
			s.crashed |= 1 << k
			continue
		}
		v--
		s.nodes[k] = uint32(v / 2)
		s.done |= (v & 1) << k
	}
	if np := int(uv()); np > 0 {
		if np <= cap(pr) {
			s.pend = pr[:np:np]
		} else {
			s.pend = make([]pend, np)
		}
		for k := range s.pend {
			p := pend{node: b[0], kind: b[1]}
			b = b[2:]
			v, w := binary.Varint(b)
			b = b[w:]
			p.val = int32(v)
			s.pend[k] = p
		}
	}
	if nn := int(uv()); nn > 0 {
		if nn <= cap(nr) {
			s.net = nr[:nn:nn]
		} else {
			s.net = make([]item, nn)
		}
		for k := range s.net {
			s.net[k].link = uint32(uv())
			s.net[k].id = uint32(uv())
		}
	}
	s.env = uint32(uv())
	return s
}
