// Package sse reads a server-sent event stream (the text/event-stream
// format) as the WHATWG HTML standard defines it, section 9.2.6 "Event
// stream interpretation". Both model APIs stream with it: Anthropic names
// each event ("event: content_block_delta"), OpenAI sends only data lines.
//
// The reader follows the standard where it matters for a client that does
// not reconnect:
//
//   - lines end in "\r\n", "\n" or a lone "\r", in any mix; a "\r" at the
//     end of one read and a "\n" at the start of the next are one line end;
//   - one leading UTF-8 byte order mark is skipped;
//   - a line starting with ":" is a comment (": ping") and is ignored;
//   - "field:value", "field: value" (one space dropped) and a bare "field"
//     (empty value) are all fields; unknown fields and "retry" are ignored;
//   - several data lines are joined with "\n";
//   - an empty line dispatches the event, unless it had no data line, in
//     which case the event type is reset and nothing is dispatched;
//   - the id persists from event to event until another id line sets it,
//     and an id containing NUL is ignored;
//   - an event not finished by an empty line when the stream ends is
//     discarded, and Next returns io.EOF.
//
// Bytes are passed through unchanged: invalid UTF-8 is not replaced (the
// JSON decoder downstream does that). A line may be at most MaxLine bytes.
package sse

import (
	"bytes"
	"errors"
	"io"
)

// MaxLine is the longest line, in bytes without its line end, that the
// Reader accepts. A tool call's input or a long text delta arrives on one
// data line, so the limit is generous; it exists so that a broken server
// cannot make the client buffer without bound.
const MaxLine = 4 << 20

// ErrLineTooLong is returned (and keeps being returned) once a line exceeds
// MaxLine. The stream cannot be resynchronised after it.
var ErrLineTooLong = errors.New("sse: line longer than 4 MiB")

const (
	initialBuf = 16 << 10
	// maxEmptyReads is how many (0, nil) reads in a row are tolerated before
	// the reader gives up with io.ErrNoProgress, as bufio does.
	maxEmptyReads = 100
)

var bom = []byte("\xEF\xBB\xBF")

// Event is one dispatched server-sent event.
type Event struct {
	// Event is the value of the "event:" field, empty when the event had
	// none (the standard then calls it "message").
	Event string
	// Data is the event's data lines joined with "\n".
	Data string
	// ID is the last event id seen so far in the stream, not necessarily on
	// this event.
	ID string
}

// Reader reads events from a stream. It is not safe for concurrent use.
type Reader struct {
	rd   io.Reader
	buf  []byte // buffered input is buf[r:w]
	r, w int
	err  error // first error from rd, returned once the buffer is drained

	started bool // the byte order mark check is done
	skipLF  bool // the last line ended in a "\r" at the end of the buffer

	// The event being assembled.
	data    []byte // data lines joined with "\n"
	hasData bool   // at least one data line was seen (data may still be empty)
	event   string
	id      string

	names []string // event names seen so far, reused to save an allocation per event
}

// maxNames bounds the event names Reader remembers. A stream uses a handful
// (Anthropic: eight); a server that invents names per event gets no reuse
// past the first few, and costs nothing more.
const maxNames = 16

// intern returns name as a string, reusing an earlier copy if there is one.
func (r *Reader) intern(name []byte) string {
	for _, s := range r.names {
		if s == string(name) {
			return s
		}
	}
	s := string(name)
	if len(r.names) < maxNames {
		r.names = append(r.names, s)
	}
	return s
}

// NewReader returns a Reader of the event stream r.
func NewReader(r io.Reader) *Reader {
	return &Reader{rd: r, buf: make([]byte, initialBuf)}
}

// Next returns the next event. At the end of the stream it returns io.EOF,
// discarding an unfinished event; any other error is the underlying
// reader's, or ErrLineTooLong.
func (r *Reader) Next() (Event, error) {
	for {
		line, err := r.readLine()
		if err != nil {
			r.data, r.hasData, r.event = r.data[:0], false, ""
			return Event{}, err
		}
		if len(line) > 0 {
			r.field(line)
			continue
		}
		if !r.hasData {
			r.event = ""
			continue
		}
		ev := Event{Event: r.event, Data: string(r.data), ID: r.id}
		r.data, r.hasData, r.event = r.data[:0], false, ""
		return ev, nil
	}
}

// field applies one non-empty line to the event being assembled.
func (r *Reader) field(line []byte) {
	if line[0] == ':' {
		return // comment
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "data":
		if r.hasData {
			r.data = append(r.data, '\n')
		}
		r.data = append(r.data, value...)
		r.hasData = true
	case "event":
		r.event = r.intern(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 && string(value) != r.id {
			r.id = string(value)
		}
	}
}

// readLine returns the next line without its line end. The slice is valid
// until the next call. A line cut short by the end of the stream is not a
// line: the error is returned instead.
func (r *Reader) readLine() ([]byte, error) {
	if !r.started {
		r.skipBOM()
	}
	scanned := 0 // bytes of buf[r.r:r.w] known to hold no line end
	for {
		if r.skipLF && r.r < r.w {
			if r.buf[r.r] == '\n' {
				r.r++
			}
			r.skipLF = false
		}
		if i := indexLineEnd(r.buf[r.r+scanned : r.w]); i >= 0 {
			end := r.r + scanned + i
			line := r.buf[r.r:end]
			if r.buf[end] == '\r' {
				switch {
				case end+1 == r.w:
					r.skipLF = true // the "\n" of a "\r\n" may be in the next read
				case r.buf[end+1] == '\n':
					end++
				}
			}
			r.r = end + 1
			if len(line) > MaxLine {
				r.err = ErrLineTooLong
				return nil, r.err
			}
			return line, nil
		}
		scanned = r.w - r.r
		if scanned > MaxLine {
			r.err = ErrLineTooLong
			return nil, r.err
		}
		if r.err != nil {
			return nil, r.err
		}
		r.fill()
	}
}

// indexLineEnd returns the index of the first "\r" or "\n" in b, or -1.
func indexLineEnd(b []byte) int {
	i := bytes.IndexByte(b, '\n')
	seg := b
	if i >= 0 {
		seg = b[:i]
	}
	if j := bytes.IndexByte(seg, '\r'); j >= 0 {
		return j
	}
	return i
}

// skipBOM drops one leading byte order mark, reading as few bytes as it
// takes to decide.
func (r *Reader) skipBOM() {
	for r.w-r.r < len(bom) && bytes.HasPrefix(bom, r.buf[r.r:r.w]) && r.err == nil {
		r.fill()
	}
	if bytes.HasPrefix(r.buf[r.r:r.w], bom) {
		r.r += len(bom)
	}
	r.started = true
}

// fill reads more input after what is buffered, moving the buffered bytes
// to the front and growing the buffer (up to MaxLine+1) when it is full.
func (r *Reader) fill() {
	if r.r > 0 {
		r.w = copy(r.buf, r.buf[r.r:r.w])
		r.r = 0
	}
	if r.w == len(r.buf) {
		nb := make([]byte, min(2*len(r.buf), MaxLine+1))
		copy(nb, r.buf[:r.w])
		r.buf = nb
	}
	for range maxEmptyReads {
		n, err := r.rd.Read(r.buf[r.w:])
		if n < 0 || n > len(r.buf)-r.w {
			r.err = errors.New("sse: reader returned an invalid count")
			return
		}
		r.w += n
		if err != nil {
			r.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	r.err = io.ErrNoProgress
}
