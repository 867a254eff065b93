package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"ringlab/engine/node"
)

// Codec types an algorithm's messages from their JSON and back: the bytes
// a RabbitMQ queue carries, a message of a saved log, a node process's
// report. A message is the engine's message JSON, as the event log writes
// it: {"type": T, ...the message's fields}. With Timestamp set (the ring
// election's wire format) Encode also writes "timestamp", the send time in
// ISO 8601. It lives beside the log so that reading a log needs no broker
// client.
//
// A codec is built from the algorithm's message registry: one prototype
// message of every type it may send, a value of the right Go type whose
// type-deciding fields (a Kind) are set. To decode, it reads the message
// into a new value of the prototype's Go type and takes from the prototype
// what the JSON cannot give back, a kind that is not written (json:"-") or
// not readable back, so such a kind still comes out right. Field names
// match as encoding/json matches them. A type the registry does not list
// is an error naming the type, on either side. The registry is fixed when
// the codec is made: a Codec is safe for concurrent use, Timestamp aside
// (set it before the first use).
type Codec struct {
	// Timestamp makes Encode write the send time in every message.
	Timestamp bool

	protos map[string]proto
}

type proto struct {
	value  reflect.Value              // the prototype, a non-pointer value
	fields map[string]json.RawMessage // its JSON fields, "type" excluded
	// whole: a struct that encoding/json reads back in one call (every
	// field it shows is readable), so Decode need not go field by field;
	// hidden are its fields the JSON does not show (json:"-"), lists its
	// list and map fields. The one call halves the time and the
	// allocations of a decode (BenchmarkDecode, msg=plain: 2.6 -> 1.3 µs,
	// 26 -> 16 allocs; go test -run '^$' -bench BenchmarkDecode
	// ./engine/trace), which every delivery and every message of a log
	// read back pays; whole = false is the field-by-field decode, and
	// TestCodecWholeAndFieldwiseAgree holds both to one result.
	whole         bool
	hidden, lists []int
}

// NewCodec returns the codec of a message registry: one prototype of each
// type (the first is kept when a type is listed twice).
func NewCodec(registry ...node.Msg) *Codec {
	c := &Codec{protos: map[string]proto{}}
	for _, m := range registry {
		t := m.Type()
		if _, ok := c.protos[t]; ok {
			continue
		}
		var fields map[string]json.RawMessage
		_ = json.Unmarshal(WrapMsg(m).Fields(), &fields)
		c.protos[t] = newProto(reflect.ValueOf(m), fields)
	}
	return c
}

func newProto(v reflect.Value, fields map[string]json.RawMessage) proto {
	p := proto{value: v, fields: fields}
	t := v.Type()
	if t.Kind() != reflect.Struct {
		return p
	}
	for k := range t.NumField() {
		f := t.Field(k)
		switch {
		case !f.IsExported():
		case f.Tag.Get("json") == "-":
			p.hidden = append(p.hidden, k)
		case f.Type.Kind() == reflect.Slice || f.Type.Kind() == reflect.Map:
			p.lists = append(p.lists, k)
		}
	}
	b, err := WrapMsg(v.Interface().(node.Msg)).MarshalJSON()
	p.whole = err == nil && json.Unmarshal(b, reflect.New(t).Interface()) == nil
	return p
}

// Encode writes m; now is the send time (used with Timestamp). A message
// whose type the registry does not list, or lists as another Go type, is
// an error: no process of the run could decode it.
func (c *Codec) Encode(m node.Msg, now time.Time) ([]byte, error) {
	p, ok := c.protos[m.Type()]
	switch {
	case !ok:
		return nil, fmt.Errorf("a message of type %q (%T), which the algorithm's message registry does not list", m.Type(), m)
	case p.value.Type() != reflect.TypeOf(m):
		return nil, fmt.Errorf("a %s message of Go type %T, which the algorithm's message registry lists as %s", m.Type(), m, p.value.Type())
	}
	b, err := WrapMsg(m).MarshalJSON()
	if err != nil || !c.Timestamp {
		return b, err
	}
	ts, _ := json.Marshal(now.UTC().Format(time.RFC3339Nano))
	b = append(b[:len(b)-1], `,"timestamp":`...)
	b = append(b, ts...)
	return append(b, '}'), nil
}

// Decode reads a message Encode wrote. The value it returns shares no
// memory with the prototype or with any earlier message.
func (c *Codec) Decode(b []byte) (node.Msg, error) {
	var head struct {
		Type json.RawMessage `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("a message that is not a JSON object: %v", err)
	}
	var typ string
	if err := json.Unmarshal(head.Type, &typ); err != nil || typ == "" {
		return nil, fmt.Errorf("a message without a \"type\": %.80q", b)
	}
	p, ok := c.protos[typ]
	if !ok {
		return nil, fmt.Errorf("a message of type %q, which the algorithm's message registry does not list", typ)
	}
	v := reflect.New(p.value.Type()).Elem()
	if v.Kind() != reflect.Struct {
		if err := json.Unmarshal(b, v.Addr().Interface()); err != nil {
			return nil, fmt.Errorf("a %s message: %v", typ, err)
		}
	} else if !p.whole || json.Unmarshal(b, v.Addr().Interface()) != nil {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(b, &obj); err != nil {
			return nil, fmt.Errorf("a message that is not a JSON object: %v", err)
		}
		keys, err := keysInOrder(b)
		if err != nil {
			return nil, fmt.Errorf("a message that is not a JSON object: %v", err)
		}
		v.SetZero()
		if err := decodeFields(v, p, keys); err != nil {
			return nil, fmt.Errorf("a %s message: %v", typ, err)
		}
	} else {
		for _, k := range p.hidden {
			v.Field(k).Set(p.value.Field(k))
		}
		for _, k := range p.lists {
			if v.Field(k).Len() == 0 {
				v.Field(k).SetZero() // [] and {} read as nil, as an omitted empty field does
			}
		}
	}
	m, ok := v.Interface().(node.Msg)
	if !ok || m.Type() != typ {
		return nil, fmt.Errorf("a %s message decodes as another type", typ)
	}
	return m, nil
}

// decodeFields fills the zero struct v field by field: a field the JSON
// does not show (json:"-") comes from the prototype, and so does a field
// the message carries with the prototype's value when that value cannot
// be read back (a kind written by name with no UnmarshalText); every other
// field is decoded from the message, or left zero when the message omits
// it (omitempty) or carries it empty: an empty list or map is nil, so a
// message decodes the same whether its sender wrote [] or left it out.
func decodeFields(v reflect.Value, p proto, obj []keyed) error {
	t := v.Type()
	names := map[string]bool{}
	for k := range t.NumField() {
		names[jsonName(t.Field(k))] = true
	}
	for k := range t.NumField() {
		f := t.Field(k)
		if !f.IsExported() {
			continue
		}
		name := f.Name
		if tag, ok := f.Tag.Lookup("json"); ok {
			if tag == "-" {
				v.Field(k).Set(p.value.Field(k))
				continue
			}
			if n, _, _ := strings.Cut(tag, ","); n != "" {
				name = n
			}
		}
		raw, ok := lookup(obj, name, names)
		if !ok {
			continue
		}
		fv := v.Field(k)
		err := json.Unmarshal(raw, fv.Addr().Interface())
		if err != nil {
			if pv, ok := p.fields[name]; ok && bytes.Equal(pv, raw) && isScalar(f.Type) {
				fv.Set(p.value.Field(k))
				continue
			}
			return fmt.Errorf("field %s: %v", name, err)
		}
		if (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.Len() == 0 {
			fv.SetZero() // [] and {} read as nil, as an omitted empty field does
		}
	}
	return nil
}

// keyed is one key of a JSON object with its value.
type keyed struct {
	key string
	raw json.RawMessage
}

// keysInOrder reads the keys of the JSON object b with their values, in
// the order b gives them.
func keysInOrder(b []byte) ([]keyed, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("no object at the start (%v)", err)
	}
	var ks []keyed
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		ks = append(ks, keyed{k, raw})
	}
	return ks, nil
}

// jsonName is the name encoding/json gives field f.
func jsonName(f reflect.StructField) string {
	if tag, ok := f.Tag.Lookup("json"); ok {
		if n, _, _ := strings.Cut(tag, ","); n != "" && n != "-" {
			return n
		}
	}
	return f.Name
}

// lookup finds the value of field name in obj as encoding/json does: a
// key names the field if it is the name, or if it equals the name but for
// case and names no field (names) exactly; of several keys that name it,
// the last one wins.
func lookup(obj []keyed, name string, names map[string]bool) (json.RawMessage, bool) {
	var raw json.RawMessage
	found := false
	for _, kv := range obj {
		if kv.key == name || !names[kv.key] && strings.EqualFold(kv.key, name) {
			raw, found = kv.raw, true
		}
	}
	return raw, found
}

// isScalar reports whether values of t hold no references (copying one
// shares nothing).
func isScalar(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return false
}
