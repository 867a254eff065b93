package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"ringlab/engine/trace"
)

// genLog is a well-formed log of n events: node 1 asks for and leaves the
// critical section in turn.
func genLog(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"v":1,"kind":"header","algorithm":"mutex central","runtime":"sim","nodes":2,"topology":"star","replay":"ringlab mutex central --nodes 2"}` + "\n")
	for i := 1; i <= n; i++ {
		kind := trace.KindEnterCS
		if i%2 == 0 {
			kind = trace.KindExitCS
		}
		fmt.Fprintf(&b, `{"v":1,"seq":%d,"t":%d,"node":1,"kind":%q,"lc":%d}`+"\n", i, i, kind, i)
	}
	return b.Bytes()
}

// A log past MaxBytes is refused, whatever reads it (a file or a pipe),
// with the bound named; one within it is read whole.
func TestReadLogBoundsItsSize(t *testing.T) {
	log := genLog(20_000) // about 1.3 MB
	_, err := ReadLog(t.Context(), ReadOptions{MaxBytes: 1 << 20}, Source{"big.ndjson", bytes.NewReader(log)})
	if err == nil || !strings.Contains(err.Error(), "big.ndjson: the logs are larger than --max-size 1 MiB") {
		t.Fatalf("a log of %d bytes under a 1 MiB bound: %v", len(log), err)
	}
	// the bound is on all files together
	half := genLog(10_000)
	_, err = ReadLog(t.Context(), ReadOptions{MaxBytes: 1 << 20}, Source{"a", bytes.NewReader(half)}, Source{"b", bytes.NewReader(half)})
	if err == nil || !strings.Contains(err.Error(), "larger than --max-size 1 MiB") {
		t.Fatalf("two logs of %d bytes under a 1 MiB bound: %v", len(half), err)
	}
	l, err := ReadLog(t.Context(), ReadOptions{MaxBytes: 2 << 20}, Source{"big.ndjson", bytes.NewReader(log)})
	if err != nil || len(l.Events) != 20_000 {
		t.Fatalf("under a 2 MiB bound: %v", err)
	}
}

// A cancelled context stops the read within a few thousand lines, with an
// error that says how far it got and unwraps to the context's.
func TestReadLogStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := ReadLog(ctx, ReadOptions{}, Source{"big.ndjson", bytes.NewReader(genLog(100_000))})
	var in *trace.Interrupted
	if !errors.As(err, &in) || !errors.Is(err, context.Canceled) || in.Lines >= 100_000 {
		t.Fatalf("read under a cancelled context: %v", err)
	}
	if !strings.Contains(err.Error(), "big.ndjson: interrupted after reading") {
		t.Fatalf("the error does not say how far it read: %v", err)
	}
	if _, err := trace.LoadContext(ctx, bytes.NewReader(genLog(100_000))); !errors.As(err, &in) || in.Lines >= 100_000 {
		t.Fatalf("trace.LoadContext under a cancelled context: %v", err)
	}
}

// With Stream, one log with a header is not read by ReadLog but by Each,
// which validates it as it hands its events over: none is kept, and
// --max-size does not bound it.
func TestReadLogStreamsOneHeadedLog(t *testing.T) {
	log := genLog(20_000)
	l, err := ReadLog(t.Context(), ReadOptions{MaxBytes: 1 << 20, Stream: true}, Source{"big.ndjson", bytes.NewReader(log)})
	if err != nil || l.Events != nil || l.Replay != "ringlab mutex central --nodes 2" || l.Nodes != 2 {
		t.Fatalf("ReadLog: %v, %d events kept, replay %q", err, len(l.Events), l.Replay)
	}
	n := 0
	if err := l.Each(t.Context(), func(*trace.Event) error { n++; return nil }); err != nil || n != 20_000 || l.Read() != n {
		t.Fatalf("Each: %v after %d events", err, n)
	}
	// an event out of order stops it at its line
	bad := bytes.Replace(log, []byte(`{"v":1,"seq":100,`), []byte(`{"v":1,"seq":10,`), 1)
	l, _ = ReadLog(t.Context(), ReadOptions{Stream: true}, Source{"bad.ndjson", bytes.NewReader(bad)})
	if err := l.Each(t.Context(), func(*trace.Event) error { return nil }); err == nil ||
		!strings.Contains(err.Error(), "bad.ndjson: line 101: sequence number 10 after 99") {
		t.Fatalf("Each of a log out of order: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	l, _ = ReadLog(ctx, ReadOptions{Stream: true}, Source{"big.ndjson", bytes.NewReader(log)})
	var in *trace.Interrupted
	if err := l.Each(ctx, func(*trace.Event) error { return nil }); !errors.As(err, &in) || l.Read() >= 20_000 {
		t.Fatalf("Each under a cancelled context: %v after %d events", err, l.Read())
	}
}
