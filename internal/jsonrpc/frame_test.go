package jsonrpc

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// event is one onNoise report.
type event struct{ Kind, Detail string }

// readAll reads frames until an error and returns the bodies, the final
// error and the noise reports in order.
func readAll(r io.Reader, maxBody int) (bodies []string, events []event, err error) {
	fr := NewFrameReader(r, maxBody, func(kind, detail string) {
		events = append(events, event{kind, detail})
	})
	for {
		b, err := fr.ReadFrame()
		if err != nil {
			return bodies, events, err
		}
		bodies = append(bodies, string(b))
	}
}

var lfEvent = event{"lf-framing", `header lines end in "\n", not "\r\n"`}

func TestReadFrame(t *testing.T) {
	long := strings.Repeat("x", 2000)
	tests := []struct {
		name    string
		in      string
		maxBody int
		want    []string
		events  []event
		err     error
	}{
		{name: "crlf", in: "Content-Length: 2\r\n\r\n{}Content-Length: 7\r\n\r\n{\"a\":1}", want: []string{"{}", `{"a":1}`}, err: io.EOF},
		{name: "empty input", in: "", err: io.EOF},
		{name: "bare lf reported once", in: "Content-Length: 2\n\n{}Content-Length: 2\n\n[]",
			want: []string{"{}", "[]"}, events: []event{lfEvent}, err: io.EOF},
		{name: "case-insensitive name", in: "content-length: 2\r\n\r\n{}CONTENT-LENGTH:2\r\n\r\n[]", want: []string{"{}", "[]"}, err: io.EOF},
		{name: "extra headers ignored", in: "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\nX-Anything: yes\r\n\r\n{}",
			want: []string{"{}"}, err: io.EOF},
		{name: "content-type first", in: "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", want: []string{"{}"}, err: io.EOF},
		{name: "value whitespace", in: "Content-Length:   2 \t\r\n\r\n{}", want: []string{"{}"}, err: io.EOF},
		{name: "multi-byte utf-8 counted in bytes", in: "Content-Length: 16\r\n\r\n{\"s\":\"héé€\"}", want: []string{`{"s":"héé€"}`}, err: io.EOF},
		{name: "zero length", in: "Content-Length: 0\r\n\r\n", want: []string{""}, err: io.EOF},
		{name: "noise line before header", in: "hello\nContent-Length: 2\r\n\r\n{}",
			want: []string{"{}"}, events: []event{{"noise", "hello\n"}}, err: io.EOF},
		{name: "noise without newline", in: "helloContent-Length: 2\r\n\r\n{}",
			want: []string{"{}"}, events: []event{{"noise", "hello"}}, err: io.EOF},
		{name: "noise lines are one report", in: "Content-Length: 2\r\n\r\n{}debug 1\r\n\r\n{\"x\": 2}\ncontent-length: 2\r\n\r\n[]",
			want: []string{"{}", "[]"}, events: []event{{"noise", "debug 1\r\n\r\n{\"x\": 2}\n"}}, err: io.EOF},
		{name: "noise at end is clean eof", in: "Content-Length: 2\r\n\r\n{}bye\n",
			want: []string{"{}"}, events: []event{{"noise", "bye\n"}}, err: io.EOF},
		{name: "unterminated noise at end", in: "bye", events: []event{{"noise", "bye"}}, err: io.EOF},
		{name: "noise detail cut to 200 bytes on a rune boundary", in: strings.Repeat("é", 150) + "\nContent-Length: 2\r\n\r\n{}",
			want: []string{"{}"}, events: []event{{"noise", strings.Repeat("é", 100)}}, err: io.EOF},
		{name: "missing length then resync", in: "Content-Type: x\r\n\r\nContent-Length: 2\r\n\r\n{}",
			want: []string{"{}"}, events: []event{{"bad-header", "header block has no Content-Length"}}, err: io.EOF},
		{name: "negative length then resync", in: "Content-Length: -5\r\n\r\nContent-Length: 2\r\n\r\n{}",
			want: []string{"{}"}, events: []event{{"bad-header", `Content-Length "-5" is not a non-negative integer`}}, err: io.EOF},
		{name: "non-numeric length, body becomes noise", in: "Content-Length: two\r\n\r\n{}\nContent-Length: 2\r\n\r\n[]",
			want: []string{"[]"}, events: []event{
				{"bad-header", `Content-Length "two" is not a non-negative integer`},
				{"noise", "{}\n"},
			}, err: io.EOF},
		{name: "conflicting lengths", in: "Content-Length: 2\r\nContent-Length: 3\r\n\r\nContent-Length: 2\r\n\r\n{}",
			want: []string{"{}"}, events: []event{{"bad-header", "conflicting Content-Length headers"}}, err: io.EOF},
		{name: "over limit", in: "Content-Length: 1099511627776\r\n\r\n{}", err: ErrFrameTooLarge},
		{name: "over int64", in: "Content-Length: 99999999999999999999999\r\n\r\n", err: ErrFrameTooLarge},
		{name: "body at limit", maxBody: 2, in: "Content-Length: 2\r\n\r\n{}", want: []string{"{}"}, err: io.EOF},
		{name: "body over small limit", maxBody: 2, in: "Content-Length: 3\r\n\r\n{} ", err: ErrFrameTooLarge},
		{name: "long line is noise", in: long + "\r\nContent-Length: 2\r\n\r\n{}",
			want: []string{"{}"}, events: []event{{"noise", long[:200]}}, err: io.EOF},
		{name: "long line without newline before header", in: long + "Content-Length: 2\r\n\r\n{}",
			want: []string{"{}"}, events: []event{{"noise", long[:200]}}, err: io.EOF},
		{name: "long header line inside block", in: "Content-Length: 2\r\nX-Long: " + long + "\r\n\r\n{}",
			want: []string{"{}"}, events: []event{{"noise", "X-Long: " + long[:192]}}, err: io.EOF},
		{name: "long line starting with the header", in: "Content-Length: 2" + long + "\r\nContent-Length: 2\r\n\r\n{}",
			want: []string{"{}"}, events: []event{{"noise", ("Content-Length: 2" + long)[:200]}}, err: io.EOF},
		{name: "eof in header line", in: "Content-Length: 2", err: io.ErrUnexpectedEOF},
		{name: "eof in header block", in: "Content-Length: 2\r\n", err: io.ErrUnexpectedEOF},
		{name: "eof after noise and partial header", in: "hiContent-Len", events: []event{{"noise", "hiContent-Len"}}, err: io.EOF},
		{name: "truncated body", in: "Content-Length: 10\r\n\r\n{}", err: io.ErrUnexpectedEOF},
		{name: "truncated large body", in: "Content-Length: 100000\r\n\r\n{}", err: io.ErrUnexpectedEOF},
		{name: "large body", in: "Content-Length: 100002\r\n\r\n\"" + strings.Repeat("a", 100000) + "\"",
			want: []string{`"` + strings.Repeat("a", 100000) + `"`}, err: io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Feeding one byte per Read must not change anything.
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				bodies, events, err := readAll(r, tt.maxBody)
				if diff := cmp.Diff(tt.want, bodies); diff != "" {
					t.Errorf("bodies (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tt.events, events); diff != "" {
					t.Errorf("noise events (-want +got):\n%s", diff)
				}
				if !errors.Is(err, tt.err) {
					t.Errorf("err = %v, want %v", err, tt.err)
				}
			}
		})
	}
}

func TestFrameTooLargeMessage(t *testing.T) {
	_, _, err := readAll(strings.NewReader("Content-Length: 1099511627776\r\n\r\n"), 1<<20)
	if want := "jsonrpc: frame too large: Content-Length 1099511627776 exceeds the limit of 1048576 bytes"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// TestFrameTooLargeDoesNotAllocate guards against reading a huge
// Content-Length by allocating it: 2^40 bytes would crash the runtime.
func TestFrameTooLargeDoesNotAllocate(t *testing.T) {
	in := "Content-Length: 1099511627776\r\n\r\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fr := NewFrameReader(strings.NewReader(in), 0, nil)
	_, err := fr.ReadFrame()
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("err = %v, want ErrFrameTooLarge", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("reading an over-limit header allocated %d bytes", got)
	}
}

// TestReadFrameBodyValidUntilNextRead: a body is valid only until the
// next ReadFrame: small bodies come straight out of the read buffer.
func TestReadFrameBodyValidUntilNextRead(t *testing.T) {
	fr := NewFrameReader(strings.NewReader("Content-Length: 2\r\n\r\n{}Content-Length: 2\r\n\r\n[]"), 0, nil)
	first, err := fr.ReadFrame()
	if err != nil {
		t.Fatal(err)
	}
	kept := string(first)
	if _, err := fr.ReadFrame(); err != nil {
		t.Fatal(err)
	}
	if kept != "{}" {
		t.Errorf("first body = %q", kept)
	}
}

func TestReadFrameError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("Content-Length: 2\r\n\r\n{}"), iotest.ErrReader(boom))
	bodies, _, err := readAll(r, 0)
	if diff := cmp.Diff([]string{"{}"}, bodies); diff != "" {
		t.Errorf("bodies (-want +got):\n%s", diff)
	}
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want %v", err, boom)
	}
}

func TestWriteFrame(t *testing.T) {
	for _, body := range []string{"", "{}", `{"s":"héé€"}`, strings.Repeat("z", 100<<10)} {
		w := &writeRecorder{}
		if err := WriteFrame(w, []byte(body)); err != nil {
			t.Fatal(err)
		}
		want := []string{"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body}
		if diff := cmp.Diff(want, w.writes()); diff != "" {
			t.Errorf("writes (-want +got):\n%.300s", diff)
		}
		bodies, events, err := readAll(bytes.NewReader([]byte(want[0])), 0)
		if len(bodies) != 1 || bodies[0] != body || events != nil || err != io.EOF {
			t.Errorf("round trip of %.20q: bodies %d, events %v, err %v", body, len(bodies), events, err)
		}
	}
}
