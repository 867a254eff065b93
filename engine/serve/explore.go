package serve

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"ringlab/engine/explore"
	"ringlab/engine/node"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
)

// Bounds of the explorer's server: what one request may ask and what the
// server keeps between requests, whoever visits and however often.
const (
	// MaxPathSteps is the longest path a request may name.
	MaxPathSteps = 4096
	// MaxCacheEntries and MaxCacheBytes bound the views kept between
	// requests (least recently used first out).
	MaxCacheEntries = 512
	MaxCacheBytes   = 8 << 20
	// MaxInterned bounds what the Explorer interns (node states, messages)
	// when no analysis holds the whole space: past it the Explorer is made
	// afresh.
	MaxInterned = 200_000
	// RequestTime bounds the time one request may take, waiting included.
	RequestTime = 10 * time.Second
	// ShortestStates bounds the search for the nearest violation.
	ShortestStates = 2_000_000
)

// Explore is the page that lets a user be the scheduler of one system:
// at each state it shows the nodes, the messages in flight and every
// enabled step, and a click takes one. The state is the path, held in the
// page's URL (/explore?path=c2,d2-1) and sent with every request: the
// server keeps no state per visitor, only a cache of views bounded in
// entries and bytes. Make one with NewExplore.
//
// Its handlers may be called concurrently; they take the one Explorer in
// turn, each waiting at most RequestTime.
type Explore struct {
	info  exploreInfo
	cfg   statespace.Config
	names func(int) string

	turn  chan struct{} // a token: whoever holds it uses x, fates and the cache
	x     *explore.Explorer
	fates *explore.Fates
	epoch int // counts the Explorers made: Keys change with each
	cache *viewCache
	open  string // the path / opens (--path), "" the initial state
}

// ExploreSpec describes the system an Explore serves.
type ExploreSpec struct {
	Title    string   // "mutex central"
	Names    []string // node i's name at index i-1
	Topology string   // trace.TopoRing, TopoComplete, TopoStar or TopoGraph
	Edges    [][2]int // a graph's edges
	// Command is the check command of the system without --path or
	// --serve: the page shows Command --path P, which replays the path,
	// and Command --serve --path P, which opens it here.
	Command string
	// Config is the search's configuration (statespace.For).
	Config statespace.Config
	// Theory, if set, says what the theory predicts for the messages of a
	// whole run, shown next to the fewest and most still to come.
	Theory string
}

// exploreInfo is what the page is told once.
type exploreInfo struct {
	Title    string   `json:"title"`
	Names    []string `json:"names"`
	Topology string   `json:"topology"`
	Edges    [][2]int `json:"edges,omitempty"`
	Command  string   `json:"command"`
	Theory   string   `json:"theory,omitempty"`
	Crashes  int      `json:"crashes"`
	Restarts int      `json:"restarts"`
	Drops    int      `json:"drops"`
	Policy   string   `json:"policy"`
	// Fates says whether every step's fate is known; FatesNote why not,
	// or the size of the space when it is.
	Fates     bool   `json:"fates"`
	FatesNote string `json:"fates_note"`
	// MaxSteps is the longest path the server takes (MaxPathSteps).
	MaxSteps int `json:"max_steps"`
}

// NewExplore makes the page's server for spec and analyses the whole
// space (explore.Explorer.Analyze) up to maxStates distinct states
// within budget: when that succeeds the page marks every step with its
// fate; when it does not, the page works without the marks and says why.
func NewExplore(ctx context.Context, spec ExploreSpec, maxStates int, budget time.Duration) (*Explore, error) {
	names := func(i int) string {
		if i >= 1 && i <= len(spec.Names) {
			return spec.Names[i-1]
		}
		return fmt.Sprintf("node %d", i)
	}
	x, err := explore.NewExplorer(spec.Config, names)
	if err != nil {
		return nil, err
	}
	e := &Explore{cfg: spec.Config, names: names, x: x, turn: make(chan struct{}, 1), cache: newViewCache(MaxCacheEntries, MaxCacheBytes)}
	e.info = exploreInfo{Title: spec.Title, Names: spec.Names, Topology: spec.Topology, Edges: spec.Edges, Command: spec.Command,
		Theory: spec.Theory, Crashes: spec.Config.Crashes, Restarts: spec.Config.Restarts, Drops: spec.Config.Drops,
		Policy: spec.Config.Policy.String(), MaxSteps: MaxPathSteps}
	actx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	start := time.Now()
	f, err := x.Analyze(actx, maxStates)
	switch {
	case err == nil:
		e.fates = f
		e.info.Fates = true
		e.info.FatesNote = fmt.Sprintf("the whole space: %d states, %d transitions, analysed in %.2fs", f.States, f.Edges, time.Since(start).Seconds())
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		e.info.FatesNote = fmt.Sprintf("not analysed: the space takes longer than %v to explore (--explore-time)", budget)
	default:
		e.info.FatesNote = "not analysed: " + strings.TrimPrefix(err.Error(), "statespace: ") + " (--explore-states)"
	}
	if e.fates == nil {
		// the analysis's interned states are of no use now
		if e.x, err = explore.NewExplorer(spec.Config, names); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// Analysed reports whether every state's fate is known.
func (e *Explore) Analysed() bool { return e.fates != nil }

// CacheSize is the number of views the server keeps and their bytes;
// never more than MaxCacheEntries and MaxCacheBytes.
func (e *Explore) CacheSize() (entries, bytes int) {
	e.turn <- struct{}{}
	defer func() { <-e.turn }()
	return e.cache.ll.Len(), e.cache.bytes
}

// Interned is what the Explorer keeps of the states it met
// (explore.Explorer.Interned): never more than MaxInterned past the
// request that passes it, unless the analysis holds the whole space.
func (e *Explore) Interned() int {
	e.turn <- struct{}{}
	defer func() { <-e.turn }()
	return e.x.Interned()
}

// Handler returns the explorer's routes: the page at /explore (and / for
// it), its state at /api/state?path=P, the nearest violation at
// /api/shortest?path=P, and the page's scripts. loopback makes it refuse
// requests whose Host is not a loopback name or address.
func (e *Explore) Handler(loopback bool) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		u := "/explore"
		if e.open != "" {
			u += "?path=" + url.QueryEscape(e.open)
		}
		http.Redirect(w, r, u, http.StatusFound)
	})
	mux.HandleFunc("GET /explore", e.page)
	mux.HandleFunc("GET /api/info", e.infoJSON)
	mux.HandleFunc("GET /api/state", e.state)
	mux.HandleFunc("GET /api/strip", e.strip)
	mux.HandleFunc("GET /api/shortest", e.shortest)
	mux.HandleFunc("GET /static/{name}", static)
	return guard(http.TimeoutHandler(mux, RequestTime, "the request took too long"), loopback)
}

// page serves the page; a path that does not parse makes it a 400, the
// page itself then saying why.
func (e *Explore) page(w http.ResponseWriter, r *http.Request) {
	b, err := assets.ReadFile("assets/explore.html")
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if _, _, err := e.parsePath(r); err != nil {
		w.WriteHeader(http.StatusBadRequest)
	}
	_, _ = w.Write(b)
}

func (e *Explore) infoJSON(w http.ResponseWriter, _ *http.Request) {
	b, _ := json.Marshal(e.info)
	writeJSON(w, b)
}

func writeJSON(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b)
}

// parsePath reads the request's path parameter, a path or a lasso
// (PREFIX|CYCLE: the prefix and one turn of the cycle, as a liveness
// check prints it): the whole path, and where its cycle starts (-1: no
// cycle). A usage error (400) names what is wrong.
func (e *Explore) parsePath(r *http.Request) ([]statespace.Trans, int, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil { // path=c2;rm: Query would drop it and show the initial state
		return nil, -1, fmt.Errorf("path: the query %s does not parse: %v", Cut(r.URL.RawQuery), err)
	}
	p := q.Get("path")
	if len(p) > MaxPathSteps*12 {
		return nil, -1, fmt.Errorf("path: longer than %d steps", MaxPathSteps)
	}
	path, cycle, err := statespace.ParseLasso(p, len(e.info.Names))
	if err != nil {
		return nil, -1, fmt.Errorf("path: %s", Cut(err.Error()))
	}
	start := -1
	if cycle != nil {
		start = len(path)
		path = append(path, cycle...)
	}
	if len(path) > MaxPathSteps {
		return nil, -1, fmt.Errorf("path: %d steps, more than %d", len(path), MaxPathSteps)
	}
	return path, start, nil
}

// take waits for the turn, at most until the request's context ends.
func (e *Explore) take(ctx context.Context) bool {
	select {
	case e.turn <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (e *Explore) state(w http.ResponseWriter, r *http.Request) {
	path, cycle, err := e.parsePath(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if !e.take(r.Context()) {
		http.Error(w, "busy: try again", http.StatusServiceUnavailable)
		return
	}
	defer func() { <-e.turn }()
	b, err := e.view(path, cycle)
	if err == nil {
		writeJSON(w, b)
		return
	}
	// A step not enabled where it comes: still a 400, as any path the
	// system cannot follow, but in JSON, with the state its valid prefix
	// reaches for the page to show.
	n := e.x.Enabled(path)
	if n == len(path) {
		http.Error(w, Cut(err.Error()), http.StatusBadRequest)
		return
	}
	pb, perr := e.view(path[:n], -1)
	if perr != nil {
		http.Error(w, Cut(err.Error()), http.StatusBadRequest)
		return
	}
	ans, _ := json.Marshal(invalidJSON{Error: Cut(err.Error()), Valid: n, Prefix: pb})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(ans)
}

// invalidJSON answers (400) a path whose step Valid+1 is not enabled:
// the error, and the state of the prefix before it.
type invalidJSON struct {
	Error  string          `json:"error"`
	Valid  int             `json:"valid"` // the steps that could be taken
	Prefix json.RawMessage `json:"prefix"`
}

// Cut shortens every word of s longer than CutWord bytes (an 8 KB label,
// a 5,000-step path) to its first CutWord-8 bytes and "…", so that an
// error echoes what it refuses without drowning the page.
func Cut(s string) string {
	f := strings.Split(s, " ")
	for i, w := range f {
		if len(w) > CutWord {
			k := CutWord - 8
			for k > 0 && !utf8.RuneStart(w[k]) {
				k--
			}
			f[i] = w[:k] + "…"
		}
	}
	return strings.Join(f, " ")
}

// CutWord is the longest word Cut leaves whole.
const CutWord = 48

// strip draws the path as a space-time diagram (trace's svg format):
// one line per node, an arrow per message, the page's strip beside the
// graph.
func (e *Explore) strip(w http.ResponseWriter, r *http.Request) {
	path, cycle, err := e.parsePath(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	key := statespace.FormatPath(path)
	if cycle >= 0 {
		key = statespace.FormatLasso(path[:cycle], path[cycle:])
	}
	rd, _ := trace.NewRenderer("svg", w)
	if hr, ok := rd.(trace.HeaderRenderer); ok {
		_ = hr.Header(&trace.Header{V: trace.Version, Kind: trace.KindHeader, Algorithm: e.info.Title, Runtime: "sim",
			Nodes: len(e.info.Names), Names: e.info.Names, Topology: e.info.Topology, Edges: e.info.Edges,
			Replay: e.info.Command + " --path '" + key + "'"})
	}
	var evs []trace.Event
	if _, err := statespace.Replay(e.cfg, path, func(ev *trace.Event) { evs = append(evs, *ev) }); err != nil {
		http.Error(w, Cut(err.Error()), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	for i := range evs {
		_ = rd.Event(&evs[i])
	}
	_ = rd.Flush()
}

// view is the JSON of the state path reaches, from the cache or made
// afresh (and cached); cycle >= 0 marks path[cycle:] as a lasso's cycle.
// The caller holds the turn.
func (e *Explore) view(path []statespace.Trans, cycle int) ([]byte, error) {
	key := statespace.FormatPath(path)
	if cycle >= 0 {
		key = statespace.FormatLasso(path[:cycle], path[cycle:])
	}
	if b, ok := e.cache.get(key); ok {
		return b, nil
	}
	if e.fates == nil && e.x.Interned() > MaxInterned {
		x, err := explore.NewExplorer(e.cfg, e.names)
		if err != nil {
			return nil, err
		}
		e.x, e.epoch = x, e.epoch+1
		e.cache = newViewCache(MaxCacheEntries, MaxCacheBytes) // its keys are the old Explorer's
	}
	var v *explore.View
	var err error
	if cycle >= 0 { // judged as the lasso's replay judges it
		v, err = e.x.AtLasso(path[:cycle], path[cycle:])
	} else {
		v, err = e.x.At(path)
	}
	if err != nil {
		return nil, err
	}
	var prev *explore.View
	if len(path) > 0 {
		if prev, err = e.x.At(path[:len(path)-1]); err != nil {
			return nil, err
		}
	}
	d := e.describe(v, prev)
	d.CycleStart = -1
	if cycle >= 0 {
		// The cycle comes back as a --path lasso must (ReplayLasso): to
		// the same state, up to the shift and the properties a search for
		// one other property leaves out.
		_, err := statespace.ReplayLasso(e.cfg, path[:cycle], path[cycle:], nil)
		d.CycleStart, d.CycleBack = cycle, cycle == len(path) || err == nil
		d.Path = key
		d.Replay = e.info.Command + " --path '" + key + "'"
		d.Open = e.info.Command + " --serve --path '" + key + "'"
	}
	b, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	e.cache.put(key, b)
	return b, nil
}

// stateJSON is one state as the page draws it.
type stateJSON struct {
	Epoch     int            `json:"epoch"`
	Key       string         `json:"key"`
	Keys      []string       `json:"keys"` // every state's along the path
	Path      string         `json:"path"`
	Labels    []string       `json:"labels"`
	Replay    string         `json:"replay"`
	Open      string         `json:"open"`
	Nodes     []nodeJSON     `json:"nodes"`
	Flight    []flightJSON   `json:"flight"`
	Steps     []stepJSON     `json:"steps"`
	Props     []propJSON     `json:"properties"`
	Violation *violationJSON `json:"violation,omitempty"`
	// Words says what each step of the path did (Labels in words).
	Words    []string `json:"words"`
	Terminal bool     `json:"terminal"`
	Messages int64    `json:"messages"`
	Fate     string   `json:"fate,omitempty"`
	NoReturn int      `json:"no_return"` // the first state on the path (0: the initial one) from which a violation is unavoidable; -1: none
	// CycleStart is, for a lasso, the number of the state on the path
	// where its cycle starts (the steps after it are the cycle), -1 for
	// a plain path; CycleBack says that the cycle's last step comes back
	// to that state, so that the cycle repeats for ever.
	CycleStart int    `json:"cycle_start"`
	CycleBack  bool   `json:"cycle_back,omitempty"`
	Fewest     *int64 `json:"fewest,omitempty"`
	Most       *int64 `json:"most,omitempty"` // absent with fewest: unknown; absent alone: unbounded
	Unbounded  bool   `json:"unbounded,omitempty"`
	Crashes    int    `json:"crashes"`
	Restarts   int    `json:"restarts"`
	Drops      int    `json:"drops"`
}

type nodeJSON struct {
	Index int    `json:"index"`
	Name  string `json:"name"`
	Alive bool   `json:"alive"`
	Done  bool   `json:"done"`
	State string `json:"state"`          // the state's name, as the algorithm says it (node.Shown)
	Mark  string `json:"mark,omitempty"` // "cs": in its critical section; "leader"
	// Fields are the node's other variables, "name: value".
	Fields  []string `json:"fields"`
	Changed []string `json:"changed,omitempty"` // the names of the fields the last step changed ("state" for the state)
	Was     string   `json:"was,omitempty"`     // the node's state's name before the last step, when it changed
	Pending []string `json:"pending,omitempty"`
}

type flightJSON struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	K    int    `json:"k"`
	Text string `json:"text"`
	Sent int64  `json:"sent"` // the messages of a link in the order sent are in the order of sent (0: not known)
}

type stepJSON struct {
	Label    string `json:"label"`
	Kind     string `json:"kind"` // deliver, fire, command, drop, crash, restart
	Node     int    `json:"node"`
	From     int    `json:"from"`
	K        int    `json:"k"`
	Words    string `json:"words"`
	Next     string `json:"next"`
	Fate     string `json:"fate,omitempty"`
	Violates string `json:"violates,omitempty"`
	Messages int    `json:"messages"`
	OnPath   int    `json:"on_path"` // the state on the path it leads back to (its index), -1: none
	// Nearest says the step is on a shortest way from here to a
	// violation (known when the whole space was analysed).
	Nearest bool `json:"nearest,omitempty"`
}

type propJSON struct {
	ID       string `json:"id"`
	Liveness bool   `json:"liveness"`
	Status   string `json:"status"`
	Detail   string `json:"detail,omitempty"`
}

type violationJSON struct {
	Property string `json:"property"`
	Detail   string `json:"detail"`
	At       int    `json:"at"`
	Nodes    []int  `json:"nodes"` // the nodes its detail names
}

var kindNames = map[statespace.Kind]string{
	statespace.Deliver: "deliver", statespace.Fire: "fire", statespace.Command: "command",
	statespace.Drop: "drop", statespace.Crash: "crash", statespace.Restart: "restart",
}

func hexKey(k uint64) string { return strconv.FormatUint(k, 16) }

// describe turns a view (and the one before its last step) into the page's JSON.
func (e *Explore) describe(v, prev *explore.View) stateJSON {
	p := statespace.FormatPath(v.Path)
	d := stateJSON{Epoch: e.epoch, Key: hexKey(v.Key), Path: p, Terminal: v.Terminal, Messages: v.Messages, NoReturn: -1,
		Crashes: e.cfg.Crashes, Restarts: e.cfg.Restarts, Drops: e.cfg.Drops,
		Labels: []string{}, Flight: []flightJSON{}, Steps: []stepJSON{}, Props: []propJSON{}} // [] in JSON, not null
	d.Replay = e.info.Command
	d.Open = e.info.Command + " --serve"
	if p != "" {
		d.Replay += " --path " + p
		d.Open += " --path " + p
	}
	onPath := map[uint64]int{}
	for i, k := range v.Keys {
		d.Keys = append(d.Keys, hexKey(k))
		if _, ok := onPath[k]; !ok {
			onPath[k] = i
		}
	}
	for _, t := range v.Path {
		d.Labels = append(d.Labels, t.String())
	}
	d.Words = append([]string{}, v.PathWords...)
	for i, n := range v.Nodes {
		nj := nodeJSON{Index: n.Index, Name: n.Name, Alive: n.Alive, Done: n.Done, State: n.Shown.State, Mark: n.Shown.Mark.String(),
			Fields: fieldTexts(n.Shown.Fields), Pending: n.Pending}
		if prev != nil {
			was := prev.Nodes[i].Shown
			if was.State != n.Shown.State {
				nj.Was = was.State
				nj.Changed = append(nj.Changed, "state")
			}
			nj.Changed = append(nj.Changed, changed(was.Fields, n.Shown.Fields)...)
		}
		d.Nodes = append(d.Nodes, nj)
	}
	for _, f := range v.InFlight {
		d.Flight = append(d.Flight, flightJSON{From: f.From, To: f.To, K: f.K, Text: f.Text, Sent: f.Sent})
	}
	for _, s := range v.Steps {
		sj := stepJSON{Label: s.Label, Kind: kindNames[s.Trans.Kind], Node: int(s.Trans.Node), From: int(s.Trans.From), K: int(s.Trans.K),
			Words: s.Words, Next: hexKey(s.Next), Messages: s.Messages, OnPath: -1}
		if s.Violation != nil {
			sj.Violates = string(s.Violation.Property)
		}
		if i, ok := onPath[s.Next]; ok {
			sj.OnPath = i
		}
		if e.fates != nil {
			if f, ok := e.fates.Fate(s.Next); ok {
				sj.Fate = f.String()
			}
			here, ok1 := e.fates.ToViolation(v.Key)
			next, ok2 := e.fates.ToViolation(s.Next)
			sj.Nearest = ok1 && ok2 && v.Violation == nil && next == here-1
		}
		d.Steps = append(d.Steps, sj)
	}
	for _, ps := range v.Properties {
		d.Props = append(d.Props, propJSON{ID: string(ps.ID), Liveness: ps.Liveness, Status: ps.Status, Detail: ps.Detail})
	}
	if v.Violation != nil {
		d.Violation = &violationJSON{Property: string(v.Violation.Property), Detail: v.Violation.Detail, At: v.ViolatedAt,
			Nodes: named(v.Violation.Detail, e.info.Names)}
	}
	if e.fates != nil {
		if f, ok := e.fates.Fate(v.Key); ok {
			d.Fate = f.String()
		}
		for i, k := range v.Keys {
			if f, ok := e.fates.Fate(k); ok && f == explore.Unavoidable {
				d.NoReturn = i
				break
			}
		}
		// The analysis counts the messages left up to the end of a run
		// or a violation: past one the count would be of nothing.
		if lo, hi, ok := e.fates.MessagesLeft(v.Key); ok && v.Violation == nil {
			d.Fewest = &lo
			if hi == statespace.Unbounded {
				d.Unbounded = true
			} else {
				d.Most = &hi
			}
		}
	}
	return d
}

func (e *Explore) shortest(w http.ResponseWriter, r *http.Request) {
	path, _, err := e.parsePath(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), RequestTime-time.Second)
	defer cancel()
	if !e.take(ctx) {
		http.Error(w, "busy: try again", http.StatusServiceUnavailable)
		return
	}
	defer func() { <-e.turn }()
	var ans struct {
		Found bool   `json:"found"`
		Steps string `json:"steps"`
		Path  string `json:"path"`
		Note  string `json:"note,omitempty"`
	}
	steps, found, err := e.x.Shortest(ctx, path, ShortestStates)
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		ans.Note = "the search for the nearest violation ran out of time"
	case err != nil:
		ans.Note = err.Error()
	case found:
		ans.Found, ans.Steps, ans.Path = true, statespace.FormatPath(steps), statespace.FormatPath(append(append([]statespace.Trans(nil), path...), steps...))
	default:
		ans.Note = "no violation is reachable from here"
	}
	b, _ := json.Marshal(ans)
	writeJSON(w, b)
}

// fieldTexts writes each field as "name: value".
func fieldTexts(fs []node.Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name + ": " + f.Value
	}
	return out
}

// changed names the fields of now whose values differ from was's.
func changed(was, now []node.Field) []string {
	old := map[string]string{}
	for _, f := range was {
		old[f.Name] = f.Value
	}
	var out []string
	for _, f := range now {
		if v, ok := old[f.Name]; !ok || v != f.Value {
			out = append(out, f.Name)
		}
	}
	return out
}

// named lists the nodes (1-based) whose names text mentions as a word:
// the nodes of a violation, from its detail ("P2 entered … while P1
// waited"). Never null in JSON.
func named(text string, names []string) []int {
	out := []int{}
	for i, name := range names {
		for rest := text; name != ""; {
			k := strings.Index(rest, name)
			if k < 0 {
				break
			}
			end := k + len(name)
			if (k == 0 || !wordByte(rest[k-1])) && (end == len(rest) || !wordByte(rest[end])) {
				out = append(out, i+1)
				break
			}
			rest = rest[end:]
		}
	}
	return out
}

func wordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// viewCache keeps the JSON of recent views by path, least recently used
// out first, within a number of entries and of bytes.
type viewCache struct {
	maxEntries, maxBytes, bytes int
	ll                          *list.List
	byKey                       map[string]*list.Element
}

type cached struct {
	key string
	b   []byte
}

func newViewCache(entries, bytes int) *viewCache {
	return &viewCache{maxEntries: entries, maxBytes: bytes, ll: list.New(), byKey: map[string]*list.Element{}}
}

func (c *viewCache) get(key string) ([]byte, bool) {
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.ll.MoveToFront(el)
	return el.Value.(*cached).b, true
}

func (c *viewCache) put(key string, b []byte) {
	size := len(key) + len(b)
	if size > c.maxBytes {
		return
	}
	if el, ok := c.byKey[key]; ok {
		c.bytes -= len(key) + len(el.Value.(*cached).b)
		c.ll.Remove(el)
		delete(c.byKey, key)
	}
	for c.ll.Len() > 0 && (c.ll.Len()+1 > c.maxEntries || c.bytes+size > c.maxBytes) {
		el := c.ll.Back()
		old := el.Value.(*cached)
		c.bytes -= len(old.key) + len(old.b)
		c.ll.Remove(el)
		delete(c.byKey, old.key)
	}
	c.byKey[key] = c.ll.PushFront(&cached{key: key, b: b})
	c.bytes += size
}

// ServeExplore serves e on ln until ctx is done, as Serve does a Server.
func ServeExplore(ctx context.Context, ln net.Listener, e *Explore, announce func(base string)) error {
	return serveHandler(ctx, ln, e.Handler(isLoopbackAddr(ln.Addr())), announce)
}

// RunExplore serves e on ln (from Listen) until ctx is cancelled (Ctrl-C),
// telling the user on stderr where to look: the page at the state path
// reaches ("" the initial state). It closes ln.
func RunExplore(ctx context.Context, e *Explore, ln net.Listener, path string, stderr io.Writer) error {
	if !isLoopbackAddr(ln.Addr()) {
		fmt.Fprintf(stderr, "warning: %s is not a loopback address: anyone who can reach it can explore this system\n", ln.Addr())
	}
	fmt.Fprintf(stderr, "fates: %s\n", e.info.FatesNote)
	e.open = path
	return ServeExplore(ctx, ln, e, func(base string) {
		u := base + "/explore"
		if path != "" {
			u += "?path=" + strings.ReplaceAll(path, "|", "%7C")
		}
		fmt.Fprintf(stderr, "exploring %s at %s (Ctrl-C to stop)\n", e.info.Title, u)
	})
}
