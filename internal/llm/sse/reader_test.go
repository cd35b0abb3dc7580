package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// readAll reads events until an error and returns them with the error.
func readAll(r io.Reader) ([]Event, error) {
	sr := NewReader(r)
	var evs []Event
	for {
		ev, err := sr.Next()
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
}

var readerTests = []struct {
	name string
	in   string
	want []Event
}{
	{"empty", "", nil},
	{"lf", "event: a\ndata: 1\n\n", []Event{{Event: "a", Data: "1"}}},
	{"crlf", "event: a\r\ndata: 1\r\n\r\n", []Event{{Event: "a", Data: "1"}}},
	{"cr", "event: a\rdata: 1\r\r", []Event{{Event: "a", Data: "1"}}},
	{"mixed line ends", "data: 1\r\ndata: 2\rdata: 3\n\r\n", []Event{{Data: "1\n2\n3"}}},
	{"cr cr is a line and a blank line", "data: x\r\rdata: y\n\n", []Event{{Data: "x"}, {Data: "y"}}},
	{"lf cr is two line ends", "data: x\n\rdata: y\n\n", []Event{{Data: "x"}, {Data: "y"}}},
	{"comment", ": ping\n\ndata: 1\n: mid-event comment\n\n", []Event{{Data: "1"}}},
	{"multi-line data", "data: a\ndata: b\ndata:\ndata: c\n\n", []Event{{Data: "a\nb\n\nc"}}},
	{"no space after colon", "event:x\ndata:{\"a\":1}\n\n", []Event{{Event: "x", Data: `{"a":1}`}}},
	{"only one space dropped", "data:  two\n\n", []Event{{Data: " two"}}},
	{"tab is kept", "data:\tx\n\n", []Event{{Data: "\tx"}}},
	{"bare field name", "data\n\n", []Event{{Data: ""}}},
	{"empty data line still dispatches", "data:\n\n", []Event{{Data: ""}}},
	{"value with colons", "data: a: b: c\n\n", []Event{{Data: "a: b: c"}}},
	{"bom skipped", "\xEF\xBB\xBFdata: 1\n\n", []Event{{Data: "1"}}},
	{"only one bom skipped", "\xEF\xBB\xBF\xEF\xBB\xBFdata: 1\n\ndata: 2\n\n", []Event{{Data: "2"}}},
	{"partial bom is data", "\xEF\xBBdata: 1\n\ndata: 2\n\n", []Event{{Data: "2"}}},
	{"event without data is dropped and resets the type", "event: a\n\ndata: 1\n\n", []Event{{Data: "1"}}},
	{"type does not leak into the next event", "event: a\ndata: 1\n\ndata: 2\n\n", []Event{{Event: "a", Data: "1"}, {Data: "2"}}},
	{"last event type wins", "event: a\nevent: b\ndata: 1\n\n", []Event{{Event: "b", Data: "1"}}},
	{"id persists", "id: 7\ndata: 1\n\ndata: 2\n\nid\ndata: 3\n\n", []Event{{Data: "1", ID: "7"}, {Data: "2", ID: "7"}, {Data: "3"}}},
	{"id with nul ignored", "id: 1\n\nid: a\x00b\ndata: x\n\n", []Event{{Data: "x", ID: "1"}}},
	{"unknown fields and retry ignored", "retry: 1000\nfoo: bar\nData: no\ndata: yes\n\n", []Event{{Data: "yes"}}},
	{"several blank lines", "\n\n\ndata: 1\n\n\n\ndata: 2\n\n", []Event{{Data: "1"}, {Data: "2"}}},
	{"unterminated final event discarded", "data: 1\n\ndata: 2\n", []Event{{Data: "1"}}},
	{"unterminated final line discarded", "data: 1\n\ndata: 2", []Event{{Data: "1"}}},
	{"trailing cr ends the event", "data: 1\r\r", []Event{{Data: "1"}}},
	{"done marker", "data: {\"x\":1}\n\ndata: [DONE]\n\n", []Event{{Data: `{"x":1}`}, {Data: "[DONE]"}}},
	{"invalid utf8 passes through", "data: \xff\xfe\n\n", []Event{{Data: "\xff\xfe"}}},
	{"nul in data", "data: a\x00b\n\n", []Event{{Data: "a\x00b"}}},
}

func TestReader(t *testing.T) {
	for _, tt := range readerTests {
		t.Run(tt.name, func(t *testing.T) {
			check := func(how string, r io.Reader) {
				t.Helper()
				got, err := readAll(r)
				if err != io.EOF {
					t.Errorf("%s: final error = %v, want io.EOF", how, err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("%s: events mismatch (-want +got):\n%s", how, diff)
				}
			}
			check("whole", strings.NewReader(tt.in))
			check("one byte at a time", iotest.OneByteReader(strings.NewReader(tt.in)))
			check("data with EOF", iotest.DataErrReader(strings.NewReader(tt.in)))
			for i := 1; i < len(tt.in); i++ {
				check(fmt.Sprintf("split at %d", i), io.MultiReader(strings.NewReader(tt.in[:i]), strings.NewReader(tt.in[i:])))
			}
		})
	}
}

func TestReaderReference(t *testing.T) {
	// The table above, checked once more against the reference
	// implementation the fuzz target uses, so that the reference itself is
	// known to agree with hand-written expectations.
	for _, tt := range readerTests {
		if diff := cmp.Diff(tt.want, reference([]byte(tt.in))); diff != "" {
			t.Errorf("%s: reference disagrees (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestReaderLineLimit(t *testing.T) {
	long := strings.Repeat("x", MaxLine-len("data: "))
	got, err := readAll(strings.NewReader("data: " + long + "\n\n"))
	if err != io.EOF || len(got) != 1 || got[0].Data != long {
		t.Fatalf("line of exactly MaxLine: got %d events, err %v; want 1 event and io.EOF", len(got), err)
	}

	sr := NewReader(strings.NewReader("data: 1\n\ndata: " + long + "x\n\ndata: 2\n\n"))
	if ev, err := sr.Next(); err != nil || ev.Data != "1" {
		t.Fatalf("first event = %+v, %v", ev, err)
	}
	for range 2 { // and it stays failed
		if _, err := sr.Next(); !errors.Is(err, ErrLineTooLong) {
			t.Fatalf("over-long line: err = %v, want ErrLineTooLong", err)
		}
	}
}

func TestReaderError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("data: 1\n\ndata: 2\n"), iotest.ErrReader(boom))
	got, err := readAll(r)
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want the reader's error", err)
	}
	if diff := cmp.Diff([]Event{{Data: "1"}}, got); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}
}

func TestReaderNoProgress(t *testing.T) {
	_, err := NewReader(zeroReader{}).Next()
	if !errors.Is(err, io.ErrNoProgress) {
		t.Errorf("err = %v, want io.ErrNoProgress", err)
	}
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func TestReaderBufferGrowth(t *testing.T) {
	// Lines longer than the initial buffer, arriving in pieces, are
	// assembled whole.
	var in bytes.Buffer
	var want []Event
	for i := range 5 {
		d := strings.Repeat(string(rune('a'+i)), initialBuf*(i+1)+3)
		in.WriteString("event: big\r\ndata: " + d + "\r\n\r\n")
		want = append(want, Event{Event: "big", Data: d})
	}
	got, err := readAll(iotest.HalfReader(&in))
	if err != io.EOF {
		t.Fatalf("err = %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}
}

// reference is a deliberately naive reading of the standard over a whole
// input: split into lines, then interpret them. The fuzz target holds the
// streaming Reader equal to it.
func reference(in []byte) []Event {
	s := strings.TrimPrefix(string(in), "\uFEFF")
	var lines []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			lines = append(lines, s[start:i])
			start = i + 1
		case '\r':
			lines = append(lines, s[start:i])
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	// s[start:] is an unfinished line: discarded with its event.
	var evs []Event
	var data, typ, id string
	for _, line := range lines {
		if line == "" {
			if data == "" {
				typ = ""
				continue
			}
			evs = append(evs, Event{Event: typ, Data: strings.TrimSuffix(data, "\n"), ID: id})
			data, typ = "", ""
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		name, value, found := strings.Cut(line, ":")
		if found {
			value = strings.TrimPrefix(value, " ")
		}
		switch name {
		case "event":
			typ = value
		case "data":
			data += value + "\n"
		case "id":
			if !strings.Contains(value, "\x00") {
				id = value
			}
		}
	}
	return evs
}

func FuzzSSEReader(f *testing.F) {
	for _, tt := range readerTests {
		f.Add([]byte(tt.in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		want := reference(in)
		got, err := readAll(bytes.NewReader(in))
		if err != io.EOF {
			t.Fatalf("whole input: err = %v, want io.EOF", err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("whole input differs from the reference (-want +got):\n%s", diff)
		}
		got, err = readAll(iotest.OneByteReader(bytes.NewReader(in)))
		if err != io.EOF {
			t.Fatalf("one byte at a time: err = %v, want io.EOF", err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("one byte at a time differs from the reference (-want +got):\n%s", diff)
		}
	})
}
