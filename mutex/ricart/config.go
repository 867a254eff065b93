package ricart

import (
	"errors"
	"fmt"
	"ringlab/mutex/internal/ids"
	"strconv"

	"ringlab/engine/node"
)

// MaxNodes bounds Config.N.
const MaxNodes = 1024

// Config is one run's configuration; Index picks the node New builds.
type Config struct {
	N                int   // nodes, 1..MaxNodes, all connected to all
	Index            int   // the node to build, 1..N (Factory sets it)
	Ids              []int // optional algorithm ids by index; default id = index
	ReleaseBroadcast bool  // course variant: send RELEASE to all others on exit
	TimeoutAsReply   bool  // course variant: a peer silent for Timeout ticks counts as a reply (unsafe)
	Timeout          int64 // ticks, >= 1 when TimeoutAsReply
	// Name gives node i's display name for the notes that name a peer, so
	// that they name it as the trace does; nil: "node i".
	Name func(i int) string
}

// name is node i's display name in a note.
func (c Config) name(i int) string {
	if c.Name == nil {
		return "node " + strconv.Itoa(i)
	}
	return c.Name(i)
}

// MessagesPerEntry is the theoretical number of messages per CS entry.
func MessagesPerEntry(n int, releaseBroadcast bool) int {
	if releaseBroadcast {
		return 3 * (n - 1)
	}
	return 2 * (n - 1)
}

// RequestAt is the action of a scenario that needs node i's request, at
// time at, to carry timestamp t (in the example with N32, N12 and N80: N12
// requests with 115, N80 with 110): a CmdRequest whose Arg is t.
func RequestAt(at int64, i, t int) node.Action {
	return node.Action{At: at, Node: i, Cmd: node.CmdRequest, Arg: t}
}

func (c Config) validate() error {
	if err := ids.Check("ricart", c.N, MaxNodes, c.Ids); err != nil {
		return err
	}
	if c.TimeoutAsReply && c.Timeout < 1 {
		return fmt.Errorf("ricart: timeout-as-reply needs a timeout of at least 1 tick, got %d", c.Timeout)
	}
	if c.Timeout < 0 {
		return errors.New("ricart: the timeout cannot be negative")
	}
	return nil
}

// Factory validates cfg once (cfg.Index is ignored) and returns a builder of
// node i of cfg.N.
func Factory(cfg Config) (node.Factory, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg.Ids = append([]int(nil), cfg.Ids...)
	return func(i int) (node.Node, error) {
		if i < 1 || i > cfg.N {
			return nil, fmt.Errorf("ricart: node index must be 1..%d, got %d", cfg.N, i)
		}
		c := cfg
		c.Index = i
		return build(&c), nil
	}, nil
}

// New builds node cfg.Index in state RELEASED with clock 0.
func New(cfg Config) (*Node, error) {
	f, err := Factory(cfg)
	if err != nil {
		return nil, err
	}
	n, err := f(cfg.Index)
	if err != nil {
		return nil, err
	}
	return n.(*Node), nil
}
