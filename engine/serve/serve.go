// Package serve shows run logs in a browser: a small, read-only web server
// and a page (plain HTML, CSS and JavaScript embedded in the binary, no
// network access) that draws the nodes in their topology, the messages in
// flight, a space-time timeline, and lets a reader step forwards and back.
//
// The server serves only the logs it was given (files named on the command
// line or standard input, each read once at start, or a run kept in
// memory), each under a number; every other path is 404. It answers GET and HEAD only, and on a loopback address it answers
// only requests addressed to a loopback host name (a web page elsewhere
// cannot read the logs through DNS rebinding). Files dropped on the page
// are read by the browser and never uploaded.
//
// Explore is the other page: the user is the scheduler of one system
// (`check ALGO --serve`), choosing every step over the real node code,
// with what each choice decides from the exhaustive checker's analysis.
// Its state is the path in the URL; the server keeps only a bounded cache.
package serve

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"ringlab/engine/lang"
	"ringlab/engine/trace"
)

//go:embed assets
var assets embed.FS

// The pages, templates that take their words from the table of their
// language (wordsData).
var (
	page        = template.Must(template.ParseFS(assets, "assets/page.html"))
	explorePage = template.Must(template.ParseFS(assets, "assets/explore.html"))
)

// wordsData is what every page needs for its words: its language, whose
// T the HTML calls ({{.L.T "key"}}), and the language's whole table, which
// the page's scripts read (assets/text.js).
type wordsData struct {
	L     lang.Lang
	Words map[string]string
}

// contentTypes of the embedded assets, by extension; other files are not served.
var contentTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
}

// Server holds the logs it serves. Add them before Handler is called; the
// handler only reads them.
type Server struct {
	runs []*entry
	// Lang is the pages' language (English when zero).
	Lang lang.Lang
}

type entry struct {
	ID   int
	Name string // file name, or a description of an in-memory run
	Info Info
	data []byte // the log, read once when it was added
}

// AddFile adds the log in the file at p. It reads the file once, checks
// that it is a run log, and keeps those bytes: the server answers with
// what it checked, never with what the path names later (a file replaced
// by a symbolic link to another file after start is not followed).
func (s *Server) AddFile(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", p)
	}
	if st.Size() > MaxLogBytes {
		return fmt.Errorf("%s is %d MB; the page shows logs up to %d MB: narrow the run (fewer --nodes, fewer --requests, a smaller --max-steps)",
			p, st.Size()>>20, MaxLogBytes>>20)
	}
	log, err := readLog(f)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	_, err = s.AddLog(filepath.Base(p), log)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}

// AddReader adds the log read from r (standard input, say) under name.
func (s *Server) AddReader(name string, r io.Reader) error {
	log, err := readLog(r)
	if err != nil {
		return err
	}
	_, err = s.AddLog(name, log)
	return err
}

// readLog reads a whole log, refusing one past MaxLogBytes without
// reading further.
func readLog(r io.Reader) ([]byte, error) {
	log, err := io.ReadAll(io.LimitReader(r, MaxLogBytes+1))
	if err != nil {
		return nil, err
	}
	if len(log) > MaxLogBytes {
		return nil, fmt.Errorf("the log is over %d MB; the page shows logs up to %d MB: narrow the run (fewer --nodes, fewer --requests, a smaller --max-steps)",
			MaxLogBytes>>20, MaxLogBytes>>20)
	}
	return log, nil
}

// AddLog adds a log held in memory under name; it returns the log's number.
func (s *Server) AddLog(name string, log []byte) (int, error) {
	if len(log) > MaxLogBytes {
		return 0, fmt.Errorf("the log is %d MB; the page shows logs up to %d MB: narrow the run (fewer --nodes, fewer --requests, a smaller --max-steps)", len(log)>>20, MaxLogBytes>>20)
	}
	info, err := Scan(bytes.NewReader(log))
	if err != nil {
		return 0, err
	}
	s.runs = append(s.runs, &entry{ID: len(s.runs) + 1, Name: trace.OneLine(name), Info: info, data: log})
	return len(s.runs), nil
}

// Handler returns the server's routes. loopback makes it refuse requests
// whose Host is not a loopback name or address.
func (s *Server) Handler(loopback bool) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.list)
	mux.HandleFunc("GET /view", s.view)
	mux.HandleFunc("GET /run/{id}", s.view)
	mux.HandleFunc("GET /log/{id}", s.log)
	mux.HandleFunc("GET /static/{name}", static)
	return guard(mux, loopback)
}

// guard sets the headers every answer carries and refuses foreign hosts
// and methods other than GET and HEAD.
func guard(next http.Handler, loopback bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "read-only: only GET and HEAD", http.StatusMethodNotAllowed)
			return
		}
		if loopback && !loopbackHost(r.Host) {
			http.Error(w, "this server answers only to localhost", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// pageData fills assets/page.html.
type pageData struct {
	wordsData
	Runs []*entry
	Run  *entry // the run the viewer opens; nil on the list page and /view
	List bool
}

func (s *Server) list(w http.ResponseWriter, _ *http.Request) {
	render(w, http.StatusOK, page, pageData{wordsData: s.words(), Runs: s.runs, List: true})
}

func (s *Server) view(w http.ResponseWriter, r *http.Request) {
	d := pageData{wordsData: s.words(), Runs: s.runs}
	if r.PathValue("id") != "" {
		e := s.find(r.PathValue("id"))
		if e == nil {
			http.NotFound(w, r)
			return
		}
		d.Run = e
	}
	render(w, http.StatusOK, page, d)
}

func (s *Server) words() wordsData { return wordsData{L: s.Lang, Words: s.Lang.Table()} }

// render writes the page t makes of d, with status.
func render(w http.ResponseWriter, status int, t *template.Template, d any) {
	var b bytes.Buffer
	if err := t.Execute(&b, d); err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// find returns the run numbered id ("1", "2", ...), or nil.
func (s *Server) find(id string) *entry {
	i, err := strconv.Atoi(id)
	if err != nil || i < 1 || i > len(s.runs) || strconv.Itoa(i) != id {
		return nil
	}
	return s.runs[i-1]
}

func (s *Server) log(w http.ResponseWriter, r *http.Request) {
	e := s.find(r.PathValue("id"))
	if e == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(e.data))
}

// static serves the embedded scripts and style sheets by exact name.
func static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	ct, ok := contentTypes[path.Ext(name)]
	if !ok || strings.ContainsAny(name, "/\\") || strings.HasPrefix(name, ".") {
		http.NotFound(w, r)
		return
	}
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(b)
}

// Serve serves s on ln until ctx is done, then shuts down gracefully
// (open requests get a few seconds to finish; idle connections, a
// browser's kept-alive or preconnected ones, are closed at once) and
// closes ln. announce is
// called with the base URL ("http://127.0.0.1:8080") once it serves. A
// cancelled ctx is a normal end: Serve returns nil.
func Serve(ctx context.Context, ln net.Listener, s *Server, announce func(base string)) error {
	return serveHandler(ctx, ln, s.Handler(isLoopbackAddr(ln.Addr())), announce)
}

// serveHandler is Serve for any handler.
func serveHandler(ctx context.Context, ln net.Listener, h http.Handler, announce func(base string)) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	var idle idleConns
	srv.ConnState = idle.track
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	host := ln.Addr().String()
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		host = net.JoinHostPort("localhost", strconv.Itoa(tcp.Port))
	}
	announce("http://" + host)
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.SetKeepAlivesEnabled(false) // a request under way is answered, and its connection closed
	idle.closeAll()
	err := srv.Shutdown(sctx)
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	return err
}

// idleConns keeps the server's connections that are not serving a
// request: Shutdown waits 5 s for a connection that never sent one (a
// browser's preconnect) before it counts it idle, so they are closed
// first.
type idleConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// track is the server's ConnState hook.
func (ic *idleConns) track(c net.Conn, st http.ConnState) {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	if ic.conns == nil {
		ic.conns = map[net.Conn]struct{}{}
	}
	switch st {
	case http.StateNew, http.StateIdle:
		ic.conns[c] = struct{}{}
	default:
		delete(ic.conns, c)
	}
}

// closeAll closes the connections that are idle now.
func (ic *idleConns) closeAll() {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	for c := range ic.conns {
		c.Close()
	}
	clear(ic.conns)
}

// isLoopbackAddr reports whether a is a loopback address.
func isLoopbackAddr(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
