package serve

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no goroutine outlives the tests: the servers' and,
// in the browser tests, chromedp's (each browser is closed and waited for
// in its test's cleanup).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const ringLog = `{"v":1,"kind":"header","algorithm":"election ring","runtime":"sim","nodes":2,"seed":1,"names":["N5","N3"],"topology":"ring","replay":"ringlab election ring --seed 1"}
{"v":1,"seq":1,"t":0,"node":1,"kind":"send","from":1,"to":2,"msg":{"type":"ELECTION","id":5},"lc":1}
{"v":1,"seq":2,"t":1,"node":2,"kind":"recv","from":1,"to":2,"msg":{"type":"ELECTION","id":5},"lc":2}
{"v":1,"seq":3,"t":1,"node":2,"kind":"violation","property":"uniqueness","detail":"two leaders","lc":2}
{"v":1,"kind":"summary","algorithm":"election ring","runtime":"sim","seed":1,"nodes":2,"t":1,"steps":1,"messages":1,"by_type":{"ELECTION":1},"verdicts":[{"property":"uniqueness","ok":false,"detail":"two leaders"}],"replay":"ringlab election ring --seed 1"}
`

// newTestServer serves one file and one in-memory log.
func newTestServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "ring.ndjson")
	if err := os.WriteFile(p, []byte(ringLog), 0o644); err != nil {
		t.Fatal(err)
	}
	// a file next to it that is not named: it must stay unreachable
	if err := os.WriteFile(filepath.Join(dir, "secret.ndjson"), []byte("SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var s Server
	if err := s.AddFile(p); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddLog("this run", []byte(ringLog)); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler(true))
	t.Cleanup(ts.Close)
	return ts, dir
}

func get(t *testing.T, method, url string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func TestRoutes(t *testing.T) {
	ts, _ := newTestServer(t)
	cases := []struct {
		path, ctype string
		want        string // in the body
	}{
		{"/", "text/html; charset=utf-8", `href="/run/2"`},
		{"/run/1", "text/html; charset=utf-8", `data-run="1"`},
		{"/run/2", "text/html; charset=utf-8", `data-name="this run"`},
		{"/view", "text/html; charset=utf-8", `data-mode="view"`},
		{"/log/1", "application/x-ndjson; charset=utf-8", `"kind":"header"`},
		{"/log/2", "application/x-ndjson; charset=utf-8", `"kind":"summary"`},
		{"/static/app.js", "text/javascript; charset=utf-8", "function parseLog"},
		{"/static/style.css", "text/css; charset=utf-8", ".banner"},
	}
	for _, c := range cases {
		resp, body := get(t, "GET", ts.URL+c.path, nil)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != c.ctype || !strings.Contains(body, c.want) {
			t.Errorf("GET %s: %d %q, body has %q: %v", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), c.want, strings.Contains(body, c.want))
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Errorf("GET %s: missing security headers: %v", c.path, resp.Header)
		}
	}
	// the list page describes the logs
	_, body := get(t, "GET", ts.URL+"/", nil)
	for _, want := range []string{"ring.ndjson", "election ring", "✗ uniqueness", "watch the violation"} {
		if !strings.Contains(body, want) {
			t.Errorf("list page lacks %q", want)
		}
	}
	// HEAD works and sends no body
	resp, body := get(t, "HEAD", ts.URL+"/log/1", nil)
	if resp.StatusCode != 200 || body != "" {
		t.Errorf("HEAD /log/1: %d, %d body bytes", resp.StatusCode, len(body))
	}
	// a range request on a log (a browser may resume)
	resp, body = get(t, "GET", ts.URL+"/log/1", map[string]string{"Range": "bytes=0-5"})
	if resp.StatusCode != http.StatusPartialContent || body != `{"v":1` {
		t.Errorf("Range: %d %q", resp.StatusCode, body)
	}
}

func TestNotFound(t *testing.T) {
	ts, dir := newTestServer(t)
	for _, p := range []string{
		"/run/0", "/run/3", "/run/01", "/run/-1", "/run/1x", "/log/0", "/log/3", "/log/+1", "/log/1.0",
		"/log/secret.ndjson", "/log/..%2fsecret.ndjson", "/log/%2e%2e/%2e%2e/etc/passwd",
		"/static/", "/static/page.html", "/static/.hidden.js", "/static/nope.js", "/static/%2e%2e%2fserve.go",
		"/static/..%2f..%2fserve.go", "/static/assets%2fapp.js", "/assets/app.js", "/serve.go",
		"/secret.ndjson", filepath.Join(dir, "secret.ndjson"), "/favicon.ico", "/index.html", "/run/", "/log/",
	} {
		resp, body := get(t, "GET", ts.URL+p, nil)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", p, resp.StatusCode)
		}
		if strings.Contains(body, "SECRET") || strings.Contains(body, "package serve") {
			t.Errorf("GET %s leaked a file", p)
		}
	}
	// Paths with dot segments are redirected to their clean form, which is then a 404 (or a served page).
	for _, p := range []string{"/static/../serve.go", "/log/../../etc/passwd", "/run/1/../../secret.ndjson", "//etc/passwd"} {
		resp, body := get(t, "GET", ts.URL+p, nil)
		if resp.StatusCode >= 300 && resp.StatusCode < 400 {
			loc := resp.Header.Get("Location")
			resp, body = get(t, "GET", ts.URL+loc, nil)
			if resp.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s -> %s: status %d, want 404", p, loc, resp.StatusCode)
			}
		} else if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusBadRequest {
			t.Errorf("GET %s: status %d", p, resp.StatusCode)
		}
		if strings.Contains(body, "SECRET") || strings.Contains(body, "root:") || strings.Contains(body, "package serve") {
			t.Errorf("GET %s leaked a file", p)
		}
	}
}

func TestReadOnly(t *testing.T) {
	ts, _ := newTestServer(t)
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS"} {
		for _, p := range []string{"/", "/log/1", "/run/1", "/static/app.js", "/upload"} {
			resp, _ := get(t, m, ts.URL+p, nil)
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s %s: %d (Allow %q), want 405", m, p, resp.StatusCode, resp.Header.Get("Allow"))
			}
		}
	}
}

func TestLoopbackHostOnly(t *testing.T) {
	ts, _ := newTestServer(t)
	for host, want := range map[string]int{
		"localhost:8080": 200, "127.0.0.1:1": 200, "[::1]:8080": 200, "LOCALHOST": 200, "127.1.2.3": 200,
		"evil.example:8080": 403, "192.168.1.10:8080": 403, "localhost.evil.example": 403, "127.0.0.1.evil.example": 403,
	} {
		resp, body := get(t, "GET", ts.URL+"/log/1", map[string]string{"Host": host})
		if resp.StatusCode != want {
			t.Errorf("Host %q: %d, want %d", host, resp.StatusCode, want)
		}
		if want == 403 && strings.Contains(body, "ELECTION") {
			t.Errorf("Host %q: the log leaked", host)
		}
	}
	// Listening on every interface, any host may ask.
	var s Server
	if _, err := s.AddLog("x", []byte(ringLog)); err != nil {
		t.Fatal(err)
	}
	open := httptest.NewServer(s.Handler(false))
	defer open.Close()
	if resp, _ := get(t, "GET", open.URL+"/log/1", map[string]string{"Host": "lab.example:8080"}); resp.StatusCode != 200 {
		t.Errorf("non-loopback server: %d", resp.StatusCode)
	}
}

func TestLimits(t *testing.T) {
	ts, _ := newTestServer(t)
	// a request with huge headers is refused by the server's limit
	resp, _ := get(t, "GET", ts.URL+"/", map[string]string{"X-Big": strings.Repeat("a", 2<<20)})
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("2 MB of headers: %d, want 431", resp.StatusCode)
	}
	// logs past MaxLogBytes are refused when named, and when kept in memory
	dir := t.TempDir()
	big := filepath.Join(dir, "big.ndjson")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxLogBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var s Server
	if err := s.AddFile(big); err == nil || !strings.Contains(err.Error(), "narrow the run") {
		t.Errorf("AddFile of a log past the limit: %v", err)
	}
	if _, err := s.AddLog("big", make([]byte, MaxLogBytes+1)); err == nil {
		t.Error("AddLog of a log past the limit: no error")
	}
}

func TestAddFileRefuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var s Server
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.ndjson"), "no such file"},
		{dir, "not a regular file"},
		{write("text.txt", "t=0 N5 send ELECTION\n"), "not a JSON object"},
		{write("empty.ndjson", ""), "no events"},
		{write("kindless.ndjson", `{"v":1}`+"\n"), "no \"kind\""},
		{write("late-header.ndjson", `{"v":1,"kind":"note","node":1}`+"\n"+`{"kind":"header"}`+"\n"), "header after"},
	} {
		if err := s.AddFile(c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("AddFile(%s): %v, want %q", filepath.Base(c.path), err, c.want)
		}
	}
	if len(s.runs) != 0 {
		t.Errorf("refused files were added: %d", len(s.runs))
	}
}

func TestScan(t *testing.T) {
	info, err := Scan(strings.NewReader(ringLog))
	if err != nil {
		t.Fatal(err)
	}
	if !info.Header || !info.Summary || info.Events != 3 || info.Violations != 1 || info.Nodes != 2 ||
		info.Algorithm != "election ring" || len(info.Failed) != 1 || info.Failed[0] != "uniqueness" {
		t.Errorf("Scan: %+v", info)
	}
	// without a header, the summary names the algorithm
	noHeader := ringLog[strings.Index(ringLog, "\n")+1:]
	info, err = Scan(strings.NewReader(noHeader))
	if err != nil || info.Header || info.Algorithm != "election ring" || info.Events != 3 {
		t.Errorf("Scan without a header: %+v, %v", info, err)
	}
}

func FuzzScan(f *testing.F) {
	f.Add([]byte(ringLog))
	f.Add([]byte(`{"kind":"summary","verdicts":[{"property":"x","ok":false}]}`))
	f.Add([]byte("{\n}\n"))
	f.Add([]byte(`{"kind":"header"}` + "\n" + `{"kind":"header"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		info, err := Scan(bytes.NewReader(b))
		if err == nil && info.Events == 0 && !info.Summary {
			t.Fatalf("accepted a log with nothing in it: %q", b)
		}
		if info.Violations > info.Events {
			t.Fatalf("more violations than events: %+v", info)
		}
	})
}

func TestServeShutsDownOnCancel(t *testing.T) {
	var s Server
	if _, err := s.AddLog("x", []byte(ringLog)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	ln, err := Listen("127.0.0.1:0", "--addr")
	if err != nil {
		t.Fatal(err)
	}
	go func() { done <- Serve(ctx, ln, &s, func(u string) { urls <- u }) }()
	base := <-urls
	resp, body := get(t, "GET", base+"/log/1", nil)
	if resp.StatusCode != 200 || !strings.Contains(body, "ELECTION") {
		t.Fatalf("GET %s/log/1: %d", base, resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve after cancel: %v", err)
	}
	if _, err := http.Get(base + "/"); err == nil {
		t.Fatal("the server still answers after shutdown")
	}
}

// TestSwappedFileNotFollowed: a served file replaced after start by a
// symbolic link to another file (a stand-in for /etc/shadow) is not
// followed; the page gets the log that was checked at start.
func TestSwappedFileNotFollowed(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ring.ndjson")
	if err := os.WriteFile(p, []byte(ringLog), 0o644); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "shadow")
	if err := os.WriteFile(secret, []byte("root:SECRET-HASH:19000:0:99999:7:::\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var s Server
	if err := s.AddFile(p); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler(true))
	defer ts.Close()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, p); err != nil {
		t.Fatal(err)
	}
	for _, hdr := range []map[string]string{nil, {"Range": "bytes=0-9"}} {
		resp, body := get(t, "GET", ts.URL+"/log/1", hdr)
		if strings.Contains(body, "SECRET") {
			t.Fatalf("GET /log/1 %v after the swap served the other file: %q", hdr, body)
		}
		if resp.StatusCode == http.StatusOK && body != ringLog {
			t.Errorf("GET /log/1 after the swap: %q, want the log checked at start", body)
		}
		if hdr != nil && (resp.StatusCode != http.StatusPartialContent || body != ringLog[:10]) {
			t.Errorf("GET /log/1 bytes 0-9 after the swap: %d %q", resp.StatusCode, body)
		}
	}
}

// TestListPageBidiControls: the list page, written by the server, shows no
// bidirectional control from a log's name, algorithm or verdicts.
func TestListPageBidiControls(t *testing.T) {
	log := strings.ReplaceAll(ringLog, "election ring", "election\u202e ring")
	log = strings.ReplaceAll(log, `"property":"uniqueness"`, `"property":"uniq\u2066ueness"`)
	var s Server
	if _, err := s.AddLog("run\u202egnp.ndjson", []byte(log)); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler(true))
	defer ts.Close()
	for _, p := range []string{"/", "/run/1"} {
		_, body := get(t, "GET", ts.URL+p, nil)
		if i := strings.IndexAny(body, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"); i >= 0 {
			t.Errorf("GET %s shows a bidirectional control: %q", p, body[max(0, i-30):min(len(body), i+30)])
		}
		if !strings.Contains(body, "run gnp.ndjson") {
			t.Errorf("GET %s does not name the run %q", p, "run gnp.ndjson")
		}
	}
	if _, body := get(t, "GET", ts.URL+"/", nil); !strings.Contains(body, "election  ring") || !strings.Contains(body, "uniq ueness") {
		t.Errorf("GET / does not show the algorithm and the failed property with spaces for the controls:\n%s", body)
	}
}
