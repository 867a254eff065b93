package node

// Snapshot is an optional fast path of a Node. A Node needs only Step:
// the engine copies its state and tells its states apart by its Go value
// (a deep copy, and a key of every field but those tagged
// `ringlab:"fixed"`, set at construction and never changed). A Node that
// implements Snapshot is copied and keyed by its own methods instead,
// which engine/vet checks against the derived ones: Clone returns an
// independent copy (stepping one never changes the other: the plain way
// is to share no slice or map with the original; a node may share one
// that no step changes in place, building a new one instead, which makes
// a clone cheaper), and AppendKey appends a canonical encoding of the
// node's mutable state to b. Two nodes built by the same Factory have
// equal keys exactly when they behave the same for every future input;
// fields fixed at construction (the configuration, the index) may be left
// out, and so may a value no step reads.
type Snapshot interface {
	Node
	// Clone returns an independent copy of the node.
	Clone() Node
	// AppendKey appends a canonical encoding of the node's state to b.
	AppendKey(b []byte) []byte
}

// AppendInt appends v to a key, zig-zag varint encoded (self-delimiting).
func AppendInt(b []byte, v int) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

// AppendBool appends v to a key as one byte.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// AppendString appends s to a key, length first (self-delimiting).
func AppendString(b []byte, s string) []byte {
	return append(AppendInt(b, len(s)), s...)
}

// AppendInts appends a slice of ints to a key, length first.
func AppendInts(b []byte, vs []int) []byte {
	b = AppendInt(b, len(vs))
	for _, v := range vs {
		b = AppendInt(b, v)
	}
	return b
}
