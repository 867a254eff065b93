package statespace

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"
	"ringlab/engine/node"
)

// A search whose every level and every parent link but the last two go
// to disk finds what the search in memory finds: the same counts, the
// same shortest path (read back from disk), on one worker and on two,
// with and without the reduction; and it gives back every table it held
// off the heap. On one worker every state is rebuilt along its path
// (CheckClones) as well.
func TestSpilledLevelsKeepCountsAndPath(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, por := range []bool{false, true} {
		for _, w := range []int{1, 2} {
			for _, world := range []bool{false, true} {
				n := 3
				if por && w == 2 && !world {
					n = 4 // levels of several batches
				}
				var res [2]Result
				for k, at := range []int64{0, 1} {
					cfg := greeters(n, world)
					cfg.POR, cfg.Workers, cfg.spillAt, cfg.SpillDir = por, w, at, t.TempDir()
					cfg.CheckClones = w == 1
					if at > 0 {
						cfg.linkMem = 2
					}
					var err error
					if res[k], err = Search(context.Background(), cfg); err != nil {
						t.Fatal(err)
					}
				}
				mem, disk := res[0], res[1]
				if mem.Spilled != 0 || disk.Spilled == 0 {
					t.Errorf("por=%v workers=%d: %d bytes spilled in memory, %d to disk", por, w, mem.Spilled, disk.Spilled)
				}
				if mem.Distinct != disk.Distinct || mem.Explored != disk.Explored || mem.Transitions != disk.Transitions ||
					mem.Terminal != disk.Terminal || mem.Depth != disk.Depth || mem.Exhausted != disk.Exhausted {
					t.Errorf("por=%v workers=%d: in memory %+v, spilled %+v", por, w, mem, disk)
				}
				if (mem.Violation == nil) == world || FormatPath(mem.Path) != FormatPath(disk.Path) {
					t.Errorf("por=%v workers=%d: path %s in memory, %s spilled", por, w, FormatPath(mem.Path), FormatPath(disk.Path))
				}
			}
		}
	}
	if m := mapped.Load(); m != 0 {
		t.Errorf("%d bytes still mapped after the searches", m)
	}
}

// The spill files are gone when the search returns, also when it is
// interrupted in the middle of a level.
func TestSpillFilesRemoved(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, w := range []int{1, 2} {
		dir := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		var calls atomic.Int64
		cfg := greeters(5, false)
		cfg.Workers, cfg.spillAt, cfg.SpillDir = w, 1, dir
		// Within is asked of every new node state, also by the workers:
		// the search is cancelled from inside, well before it ends.
		cfg.Within = func(int, node.Node) bool {
			if calls.Add(1) == 200 {
				cancel()
			}
			return true
		}
		r, err := Search(ctx, cfg)
		cancel()
		if err != nil || r.Stop != "interrupted" || r.Spilled == 0 {
			t.Fatalf("workers=%d: stop %q, %d bytes spilled, %v: want an interrupted search that spilled", w, r.Stop, r.Spilled, err)
		}
		if left, err := os.ReadDir(dir); err != nil || len(left) > 0 {
			t.Errorf("workers=%d: %d files left in the spill directory (%v)", w, len(left), err)
		}
	}
	cfg := greeters(3, false)
	cfg.spillAt, cfg.SpillDir = 1, "/nonexistent/spill"
	if _, err := Search(context.Background(), cfg); err == nil {
		t.Error("a spill directory that does not exist: no error")
	}
}

// The sharded fingerprint table answers as a map does, with and without
// values, as its shards grow past the size mapped off the heap; fingerprint
// 0 is kept (as 1).
func TestFPSetAgainstMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, vals := range []bool{false, true} {
		f := newFPSet(vals)
		want := map[uint64]int32{}
		for i := range 300_000 {
			fp := rng.Uint64()
			if i == 7 {
				fp = 0
			}
			if i%5 == 0 { // and some in one shard, to grow it alone
				fp = fp>>8 | 0xab<<56
			}
			if _, ok := want[max(fp, 1)]; ok {
				continue
			}
			want[max(fp, 1)] = int32(i)
			f.put(fp, int32(i))
		}
		if f.n != len(want) || mapped.Load() == 0 {
			t.Fatalf("vals=%v: %d stored, want %d; %d bytes mapped", vals, f.n, len(want), mapped.Load())
		}
		for fp, v := range want {
			got, ok := f.get(fp)
			if !ok || vals && got != v {
				t.Fatalf("vals=%v: get(%x) = %d, %v, want %d", vals, fp, got, ok, v)
			}
		}
		if _, ok := f.get(0); !ok {
			t.Errorf("vals=%v: fingerprint 0 lost", vals)
		}
		for range 100_000 {
			fp := rng.Uint64()
			_, ok := f.get(fp)
			if _, in := want[max(fp, 1)]; ok != in {
				t.Fatalf("vals=%v: get(%x) = %v, want %v", vals, fp, ok, in)
			}
		}
		f.free()
	}
	if m := mapped.Load(); m != 0 {
		t.Errorf("%d bytes still mapped after free", m)
	}
}

// A level reads back what was pushed, in batches of any size, whether its
// entries span its chunks in memory or went to a file.
func TestQueueReadsBackWhatWasPushed(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, at := range []int64{spillAt, 1 << 20} {
		q := newQueue(t.TempDir(), at)
		var want []entry
		size := 0
		for i := 0; size < 3*chunkSize; i++ {
			key := make([]byte, rng.IntN(300))
			for k := range key {
				key[k] = byte(rng.Uint32())
			}
			e := entry{rec: int32(i), depth: rng.Int32N(100), only: rng.Int32N(5) - 1, sleep: rng.Int32N(1000), key: key}
			q.push(e)
			want = append(want, e)
			size += len(key)
		}
		if err := q.finish(); err != nil {
			t.Fatal(err)
		}
		if (q.spilled > 0) != (at < spillAt) {
			t.Errorf("spill at %d: %d bytes spilled", at, q.spilled)
		}
		var got []entry
		for lo := 0; lo < q.n; {
			hi := min(q.n, lo+markEvery*(1+rng.IntN(40)))
			b, err := q.read(lo, hi, nil)
			if err != nil {
				t.Fatal(err)
			}
			got = parseEntries(b, got)
			lo = hi
		}
		if len(got) != len(want) {
			t.Fatalf("spill at %d: %d entries back, want %d", at, len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.rec != w.rec || g.depth != w.depth || g.only != w.only || g.sleep != w.sleep || !bytes.Equal(g.key, w.key) {
				t.Fatalf("spill at %d: entry %d is %+v, want %+v", at, i, g, w)
			}
		}
		q.close()
	}
	if m := mapped.Load(); m != 0 {
		t.Errorf("%d bytes still mapped after close", m)
	}
}

// The records give back each state's parent, transition, depth (also
// past the two bytes most depths take) and sleep set, the links of all
// but the last two read back from disk.
func TestRecordsGiveBackWhatWasAdded(t *testing.T) {
	r := newRecords(true, t.TempDir(), 2)
	depths := []int32{0, 1, 5, 65534, 65535, 70000, 3}
	for i, d := range depths {
		if got := r.add(int32(i)-1, Trans{Kind: Deliver, Node: int16(i), Msg: uint32(i % 2)}, d, int32(10*i)); got != int32(i) {
			t.Fatalf("add %d: number %d", i, got)
		}
	}
	r.setSleep(4, 7, true)
	for i, d := range depths {
		p, tr := r.parent(int32(i))
		sl, exp := r.sleepOf(int32(i))
		wantSl := int32(10 * i)
		if i == 4 {
			wantSl = 7
		}
		if p != int32(i)-1 || tr.Node != int16(i) || tr.Msg != uint32(i%2) || r.depthOf(int32(i)) != d || sl != wantSl || exp != (i == 4) {
			t.Errorf("state %d: parent %d by %v, depth %d, sleep %d expanded %v", i, p, tr, r.depthOf(int32(i)), sl, exp)
		}
	}
	if r.link.err != nil || r.link.onDisk == 0 {
		t.Errorf("%d links on disk (%v), want all but the last two", r.link.onDisk, r.link.err)
	}
	r.free()
}
