package vet

import (
	"bytes"
	"fmt"
	"reflect"
	"time"

	"ringlab/engine/node"
	"ringlab/engine/run"
	"ringlab/engine/trace"
)

// codec runs the codec check on the registry's prototypes and on every
// message the search saw: each must come back deep-equal from the
// broker's wire encoding (trace.Codec, as engine/amqp sends it) and from
// the NDJSON log (written by trace's json renderer, read back by
// trace.Read and typed through the registry as run.Recorded types a saved
// run's). It reports one finding per message type and path, and how many
// messages it tried.
func (l *linter) codec() ([]Finding, int) {
	c := trace.NewCodec(l.sys.Messages...)
	c.Timestamp = l.sys.WireTimestamp
	all := append(append([]node.Msg(nil), l.sys.Messages...), l.msgs...)
	var fs []Finding
	reported := map[string]bool{}
	add := func(m node.Msg, method, detail string) {
		id := m.Type() + "\x00" + method
		if reported[id] {
			return
		}
		reported[id] = true
		fs = append(fs, Finding{Check: CheckCodec, Method: method, Input: "message " + msgText(m), Detail: detail})
	}
	seen := map[string]bool{}
	printed := map[string]node.Msg{} // a message's own text (String, Error or Format) -> the first value that printed it
	n := 0
	for k, m := range all {
		if l.stopped(k) {
			break
		}
		if m == nil {
			continue
		}
		id := msgID(m, k)
		if seen[id] {
			continue
		}
		seen[id] = true
		n++
		if d := wireTrip(c, m); d != "" {
			add(m, "amqp codec", d)
		}
		if d := logTrip(c, m); d != "" {
			add(m, "NDJSON log", d)
		}
		if text, ok := ownText(m); ok {
			if first, met := printed[text]; !met {
				printed[text] = m
			} else {
				add(m, "String", fmt.Sprintf("%s prints as %q, as does the different message %s: its String (or Error, Format) leaves out a field, so the prints of a trace or a test cannot tell the two apart (the checker tells messages apart by their whole value)",
					clip(fmt.Sprintf("%#v", m), 80), clip(text, 60), clip(fmt.Sprintf("%#v", first), 80)))
			}
		}
	}
	return fs, n
}

// ownText is how m prints by a method of its own (String, Error or
// Format), and whether it has one: a message without one prints every
// field, so two different values cannot print alike.
func ownText(m node.Msg) (string, bool) {
	switch m.(type) {
	case fmt.Stringer, error, fmt.Formatter:
		return m.Type() + " " + fmt.Sprint(m), true
	}
	return "", false
}

// wireTrip says how m fails to come back from the broker's encoding ("":
// it does).
func wireTrip(c *trace.Codec, m node.Msg) string {
	b, err := c.Encode(m, time.Unix(0, 0))
	if err != nil {
		return fmt.Sprintf("encoding: %v (System.Messages must list one value of every type sent)", err)
	}
	got, err := c.Decode(b)
	if err != nil {
		return fmt.Sprintf("decoding %s: %v", b, err)
	}
	return differs(m, got, b)
}

// logTrip says how m fails to come back from the event log ("": it does).
func logTrip(c *trace.Codec, m node.Msg) string {
	var buf bytes.Buffer
	r, err := trace.NewRenderer("json", &buf)
	if err != nil {
		return err.Error()
	}
	ev := trace.Event{V: trace.Version, Seq: 1, Node: 1, Kind: trace.KindSend, From: 1, To: 1, Msg: trace.WrapMsg(m), LC: 1}
	if err := r.Event(&ev); err != nil {
		return fmt.Sprintf("writing the log: %v", err)
	}
	if err := r.Flush(); err != nil {
		return fmt.Sprintf("writing the log: %v", err)
	}
	line := bytes.TrimSpace(buf.Bytes())
	var got node.Msg
	err = trace.Read(&buf, func(e *trace.Event) error {
		tm, err := run.DecodeMsg(c, e.Msg)
		if err != nil {
			return err
		}
		if tm != nil {
			got = tm.Value
		}
		return nil
	}, nil)
	if err != nil {
		return fmt.Sprintf("reading back %s: %v", line, err)
	}
	return differs(m, got, line)
}

// differs says how got, decoded from b, differs from m ("": deep-equal):
// the first field that differs, and why JSON loses it when it can tell.
func differs(m, got node.Msg, b []byte) string {
	if reflect.DeepEqual(m, got) {
		return ""
	}
	field := ""
	v, g := reflect.ValueOf(m), reflect.ValueOf(got)
	if v.Kind() == reflect.Struct && g.IsValid() && g.Type() == v.Type() {
		for k := range v.NumField() {
			sent, back := valueText(v.Field(k)), valueText(g.Field(k))
			if sent == back {
				continue
			}
			f := v.Type().Field(k)
			field = fmt.Sprintf(": field %s was %s, came back %s", f.Name, clip(sent, 60), clip(back, 60))
			switch {
			case !f.IsExported():
				field += " (it is unexported: JSON does not carry it)"
			case f.Type.Kind() == reflect.Interface:
				field += " (it is an interface: JSON cannot say which type to decode into)"
			}
			break
		}
	}
	return fmt.Sprintf("decodes from %s as %s, not equal to the message sent%s", clip(string(b), 160), clip(fmt.Sprintf("%+v", got), 120), field)
}

// valueText is a field's value with its dynamic type when it is an
// interface: an int and a float64 1 must not read alike.
func valueText(v reflect.Value) string {
	if v.Kind() == reflect.Interface && !v.IsNil() {
		return fmt.Sprintf("%s(%#v)", v.Elem().Type(), v.Elem())
	}
	return fmt.Sprintf("%#v", v)
}
