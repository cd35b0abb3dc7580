package jsonrpc

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// FuzzReadFrame checks the reader on arbitrary input: it never panics or
// loops, never returns a body over the limit, fails only with the documented
// errors, behaves the same however the input is split into reads, and reads
// back whatever WriteFrame wrote. Seeds in testdata/fuzz/FuzzReadFrame cover
// the framing variants of TestReadFrame.
func FuzzReadFrame(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const limit = 64
		bodies, events, err := readAll(bytes.NewReader(data), limit)
		for _, b := range bodies {
			if len(b) > limit {
				t.Fatalf("body of %d bytes exceeds the limit of %d", len(b), limit)
			}
		}
		if err != io.EOF && err != io.ErrUnexpectedEOF && !errors.Is(err, ErrFrameTooLarge) {
			t.Fatalf("unexpected error %v", err)
		}
		for _, e := range events {
			if e.Kind == "noise" && len(e.Detail) > maxNoiseDetail {
				t.Fatalf("noise detail of %d bytes", len(e.Detail))
			}
		}

		bodies2, events2, err2 := readAll(iotest.OneByteReader(bytes.NewReader(data)), limit)
		if diff := cmp.Diff(bodies, bodies2); diff != "" {
			t.Fatalf("one-byte reads changed the bodies (-whole +bytewise):\n%s", diff)
		}
		if diff := cmp.Diff(events, events2); diff != "" {
			t.Fatalf("one-byte reads changed the events (-whole +bytewise):\n%s", diff)
		}
		if err2 != err && err2.Error() != err.Error() {
			t.Fatalf("one-byte reads changed the error: %v, then %v", err, err2)
		}

		var buf bytes.Buffer
		if err := WriteFrame(&buf, data); err != nil {
			t.Fatal(err)
		}
		bodies, events, err = readAll(&buf, max(len(data), 1))
		if len(bodies) != 1 || !bytes.Equal([]byte(bodies[0]), data) || events != nil || err != io.EOF {
			t.Fatalf("WriteFrame round trip: %d bodies, events %v, err %v", len(bodies), events, err)
		}
	})
}
