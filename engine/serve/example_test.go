package serve_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"

	"ringlab/engine/serve"
)

// runLog is a run's NDJSON log: a header, the events, the summary.
const runLog = `{"v":1,"kind":"header","algorithm":"ping","runtime":"sim","nodes":2,"seed":1,"topology":"complete","replay":"ping --seed 1"}
{"v":1,"seq":1,"t":0,"node":1,"kind":"send","from":1,"to":2,"msg":{"type":"PING"},"lc":1}
{"v":1,"seq":2,"t":1,"node":2,"kind":"recv","from":1,"to":2,"msg":{"type":"PING"},"lc":2}
{"v":1,"kind":"summary","algorithm":"ping","runtime":"sim","seed":1,"nodes":2,"t":1,"steps":2,"messages":1,"by_type":{"PING":1},"verdicts":[{"property":"termination","ok":true}],"replay":"ping --seed 1"}
`

// A Server serves the logs it was given, read once, to the browser page;
// its Handler answers GET and HEAD only, and, when told the server is on
// a loopback address, only requests addressed to a loopback host.
func ExampleServer() {
	var s serve.Server
	id, err := s.AddLog("a ping", []byte(runLog))
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(s.Handler(true))
	defer ts.Close() // closes the client's connections too
	client := ts.Client()

	res, err := client.Get(fmt.Sprintf("%s/log/%d", ts.URL, id))
	if err != nil {
		panic(err)
	}
	first, _ := bufio.NewReader(res.Body).ReadString('\n')
	res.Body.Close()
	fmt.Print(res.Status, ": ", first)

	res, err = client.Post(ts.URL+"/log/1", "text/plain", strings.NewReader(""))
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	fmt.Print(res.Status, ": ", string(body))

	info, err := serve.Scan(strings.NewReader(runLog))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %d nodes, %d events, %d violations\n", info.Algorithm, info.Nodes, info.Events, info.Violations)
	// Output:
	// 200 OK: {"v":1,"kind":"header","algorithm":"ping","runtime":"sim","nodes":2,"seed":1,"topology":"complete","replay":"ping --seed 1"}
	// 405 Method Not Allowed: read-only: only GET and HEAD
	// ping: 2 nodes, 2 events, 0 violations
}
