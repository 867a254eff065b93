package trace

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Topologies a header names.
const (
	TopoRing     = "ring"     // i -> i+1, n -> 1
	TopoComplete = "complete" // everyone talks to everyone
	TopoStar     = "star"     // node 1 in the centre (a coordinator)
	TopoGraph    = "graph"    // Edges lists the undirected edges by node index
)

// Header is the first line of every NDJSON run log: what ran, and the
// names every view of the run gives its nodes.
//
//	{"v":1,"kind":"header","algorithm":"election ring","runtime":"sim","nodes":5,"seed":123,
//	 "names":["N5","N3","N7","N1","N4"],"topology":"ring","replay":"ringlab election ring --seed 123"}
//
// Names[i-1] is node i's display name: its role or its algorithm id
// ("coordinator", "P2", "N5"). A log without a header (an older one) reads
// as names "node I" and a complete topology.
type Header struct {
	V         int      `json:"v"`               // the schema version, Version
	Kind      string   `json:"kind"`            // always "header"
	Algorithm string   `json:"algorithm"`       // the System's name
	Runtime   string   `json:"runtime"`         // "sim", "live" or "amqp": the unit of the events' T
	Nodes     int      `json:"nodes"`           // the number of nodes
	Seed      uint64   `json:"seed"`            // the run's seed
	Names     []string `json:"names,omitempty"` // Names[i-1] is node i's display name
	Topology  string   `json:"topology"`        // TopoRing, TopoComplete, TopoStar or TopoGraph
	Edges     [][2]int `json:"edges,omitempty"` // TopoGraph's undirected edges, by node index
	Replay    string   `json:"replay"`          // a command line that repeats the run
}

// KindHeader is the kind of the header line.
const KindHeader = "header"

// NewHeader returns the header of a run of n nodes named by name (nil:
// "node I").
func NewHeader(algorithm, runtime string, n int, seed uint64, name func(int) string, topology string, edges [][2]int, replay string) *Header {
	h := &Header{V: Version, Kind: KindHeader, Algorithm: algorithm, Runtime: runtime, Nodes: n, Seed: seed,
		Topology: topology, Edges: edges, Replay: replay}
	if h.Topology == "" {
		h.Topology = TopoComplete
	}
	if name != nil {
		h.Names = make([]string, n)
		for i := range h.Names {
			h.Names[i] = name(i + 1)
		}
	}
	return h
}

// DefaultName is the name of node i in a log that gives none.
func DefaultName(i int) string { return "node " + strconv.Itoa(i) }

// Name is node i's display name.
func (h *Header) Name(i int) string {
	if h != nil && i >= 1 && i <= len(h.Names) && h.Names[i-1] != "" {
		return OneLine(h.Names[i-1])
	}
	return DefaultName(i)
}

// Label is node i's name with its index where the name does not say it:
// "N32 (node 5)", "node 3".
func (h *Header) Label(i int) string {
	n := h.Name(i)
	if strings.HasSuffix(n, " "+strconv.Itoa(i)) { // "node 3", "goroutine 3"
		return n
	}
	return fmt.Sprintf("%s (node %d)", n, i)
}

// Namer returns h.Name as a function.
func (h *Header) Namer() func(int) string { return h.Name }

// Live reports whether times are wall-clock nanoseconds (a run on
// goroutines or over a broker) rather than simulator ticks.
func (h *Header) Live() bool { return h != nil && (h.Runtime == "live" || h.Runtime == "amqp") }

// FormatTime writes a time of the run: ticks as a number, a live run's
// nanoseconds in a readable unit (850ns, 12.5µs, 3.2ms, 1.5s).
func (h *Header) FormatTime(t int64) string {
	if !h.Live() {
		return strconv.FormatInt(t, 10)
	}
	return Duration(t)
}

// Duration writes nanoseconds in a readable unit with three significant
// digits at most.
func Duration(ns int64) string {
	d := time.Duration(ns)
	switch {
	case d < time.Microsecond && d > -time.Microsecond:
		return d.String()
	case d < time.Millisecond && d > -time.Millisecond:
		return d.Round(10 * time.Nanosecond).String()
	case d < time.Second && d > -time.Second:
		return d.Round(10 * time.Microsecond).String()
	}
	return d.Round(10 * time.Millisecond).String()
}
