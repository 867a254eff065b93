package live

import (
	"testing"
	"unsafe"
)

// A peer is three whole cache lines, and its inbox fits the first (see
// peer): a field added or removed must keep that, or neighbours on the
// ring write to one line again.
func TestPeerLayout(t *testing.T) {
	var p peer
	if size := unsafe.Sizeof(p); size != 192 {
		t.Errorf("peer is %d bytes, want 192: adjust the padding", size)
	}
	if end := unsafe.Offsetof(p.nd) + unsafe.Sizeof(p.nd); end > 64 {
		t.Errorf("the inbox and what senders read end at byte %d, past the first cache line", end)
	}
}
