package store

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// The sharded fingerprint table answers as a map does, with and without
// values, as its shards grow past the size mapped off the heap; fingerprint
// 0 is kept (as 1).
func TestFPSetAgainstMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, vals := range []bool{false, true} {
		f := NewFPSet(vals)
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
			f.Put(fp, int32(i))
		}
		if f.n != len(want) || mapped.Load() == 0 {
			t.Fatalf("vals=%v: %d stored, want %d; %d bytes mapped", vals, f.n, len(want), mapped.Load())
		}
		for fp, v := range want {
			got, ok := f.Get(fp)
			if !ok || vals && got != v {
				t.Fatalf("vals=%v: get(%x) = %d, %v, want %d", vals, fp, got, ok, v)
			}
		}
		if _, ok := f.Get(0); !ok {
			t.Errorf("vals=%v: fingerprint 0 lost", vals)
		}
		for range 100_000 {
			fp := rng.Uint64()
			_, ok := f.Get(fp)
			if _, in := want[max(fp, 1)]; ok != in {
				t.Fatalf("vals=%v: get(%x) = %v, want %v", vals, fp, ok, in)
			}
		}
		f.Free()
	}
	if m := mapped.Load(); m != 0 {
		t.Errorf("%d bytes still mapped after free", m)
	}
}

// A level reads back what was pushed, in batches of any size, whether its
// entries span its chunks in memory or went to a file.
func TestQueueReadsBackWhatWasPushed(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, at := range []int64{SpillAt, 1 << 20} {
		q := NewQueue(t.TempDir(), at)
		var want []Entry
		size := 0
		for i := 0; size < 3*chunkSize; i++ {
			key := make([]byte, rng.IntN(300))
			for k := range key {
				key[k] = byte(rng.Uint32())
			}
			e := Entry{Rec: int32(i), Depth: rng.Int32N(100), Only: rng.Int32N(5) - 1, Sleep: rng.Int32N(1000), Key: key}
			q.Push(e)
			want = append(want, e)
			size += len(key)
		}
		if err := q.Finish(); err != nil {
			t.Fatal(err)
		}
		if (q.Spilled > 0) != (at < SpillAt) {
			t.Errorf("spill at %d: %d bytes spilled", at, q.Spilled)
		}
		var got []Entry
		for lo := 0; lo < q.n; {
			hi := min(q.n, lo+MarkEvery*(1+rng.IntN(40)))
			b, err := q.Read(lo, hi, nil)
			if err != nil {
				t.Fatal(err)
			}
			got = ParseEntries(b, got)
			lo = hi
		}
		if len(got) != len(want) {
			t.Fatalf("spill at %d: %d entries back, want %d", at, len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.Rec != w.Rec || g.Depth != w.Depth || g.Only != w.Only || g.Sleep != w.Sleep || !bytes.Equal(g.Key, w.Key) {
				t.Fatalf("spill at %d: entry %d is %+v, want %+v", at, i, g, w)
			}
		}
		q.Close()
	}
	if m := mapped.Load(); m != 0 {
		t.Errorf("%d bytes still mapped after close", m)
	}
}

// step stands for the search's transition in the records' test.
type step struct {
	Node int16
	Msg  uint32
}

// The records give back each state's parent, transition, depth (also
// past the two bytes most depths take) and sleep set, the links of all
// but the last two read back from disk.
func TestRecordsGiveBackWhatWasAdded(t *testing.T) {
	r := NewRecords[step](true, t.TempDir(), 2)
	depths := []int32{0, 1, 5, 65534, 65535, 70000, 3}
	for i, d := range depths {
		if got := r.Add(int32(i)-1, step{Node: int16(i), Msg: uint32(i % 2)}, d, int32(10*i)); got != int32(i) {
			t.Fatalf("add %d: number %d", i, got)
		}
	}
	r.SetSleep(4, 7, true)
	for i, d := range depths {
		p, tr := r.Parent(int32(i))
		sl, exp := r.SleepOf(int32(i))
		wantSl := int32(10 * i)
		if i == 4 {
			wantSl = 7
		}
		if p != int32(i)-1 || tr.Node != int16(i) || tr.Msg != uint32(i%2) || r.DepthOf(int32(i)) != d || sl != wantSl || exp != (i == 4) {
			t.Errorf("state %d: parent %d by %v, depth %d, sleep %d expanded %v", i, p, tr, r.DepthOf(int32(i)), sl, exp)
		}
	}
	if r.link.err != nil || r.link.onDisk == 0 {
		t.Errorf("%d links on disk (%v), want all but the last two", r.link.onDisk, r.link.err)
	}
	r.Free()
}
