package trace_test

import (
	"fmt"
	"time"

	"ringlab/engine/trace"
)

// Request and Reply are the messages of the codec's example.
type Request struct{ T, ID int }

// Type names the message kind.
func (Request) Type() string { return "REQUEST" }

// Reply answers a Request.
type Reply struct{ ID int }

// Type names the message kind.
func (Reply) Type() string { return "REPLY" }

// A Codec is made from the algorithm's message registry, one value of
// each type it sends; it writes a message as the JSON a queue carries and
// a log holds, and reads it back as the same Go value. A type the registry
// does not list is refused on the way out, so no process has to guess it
// on the way in.
func ExampleCodec() {
	codec := trace.NewCodec(Request{}, Reply{})
	b, err := codec.Encode(Request{T: 3, ID: 7}, time.Time{})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	m, err := codec.Decode(b)
	fmt.Printf("%#v %v\n", m, err)

	_, err = trace.NewCodec(Request{}).Encode(Reply{ID: 7}, time.Time{})
	fmt.Println(err)
	// Output:
	// {"type":"REQUEST","ID":7,"T":3}
	// trace_test.Request{T:3, ID:7} <nil>
	// a message of type "REPLY" (trace_test.Reply), which the algorithm's message registry does not list
}
