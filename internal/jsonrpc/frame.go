package jsonrpc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxHeaderLine is the longest header line, in bytes and not counting its
// line terminator, that the reader parses. A longer line cannot be a header
// anyone meant to send, so it is skipped as noise.
const MaxHeaderLine = 1024

// DefaultMaxBody is the body limit, in bytes, used when a caller passes 0.
const DefaultMaxBody = 16 << 20

// ErrFrameTooLarge reports a Content-Length above the reader's limit. It is
// fatal: the body is never read (nor allocated), so the stream cannot be
// resynchronised.
var ErrFrameTooLarge = errors.New("jsonrpc: frame too large")

const (
	// readBufSize is the read buffer; bodies up to this size are returned
	// straight out of it. 64 KiB is a Linux pipe's capacity.
	readBufSize = 64 << 10
	// maxRetainedBody bounds the body buffer kept between frames, so that
	// one 16 MiB message does not pin 16 MiB for the life of the reader.
	maxRetainedBody = 1 << 20
	// maxNoiseDetail bounds the text handed to onNoise for one run of noise.
	maxNoiseDetail = 200
)

// contentLength is the header name with its colon, lower case; it is
// matched case-insensitively anywhere in a line (see readHeader).
var contentLength = []byte("content-length:")

// FrameReader reads Content-Length framed messages. It is a tolerant reader:
// it survives what real extensions print on stdout and reports each anomaly
// through onNoise instead of failing. It is not safe for concurrent use.
type FrameReader struct {
	br         *bufio.Reader
	maxBody    int
	onNoise    func(kind, detail string)
	body       []byte // reusable buffer for bodies larger than br's buffer
	noise      []byte // first maxNoiseDetail bytes of the unreported noise run
	noiseN     int    // length of the unreported noise run
	lfReported bool   // "lf-framing" has been reported (it is reported once)
}

// NewFrameReader returns a reader of frames from r whose bodies are at most
// maxBody bytes (0 or less means DefaultMaxBody). onNoise, if not nil, is
// called synchronously for every tolerated anomaly, with kind
//
//   - "noise": bytes that are not part of any frame (detail: those bytes,
//     cut to 200); a stray print before a header, or an over-long line;
//   - "bad-header": a header block without a usable Content-Length, skipped;
//   - "lf-framing": header lines end in a bare "\n" (reported once).
func NewFrameReader(r io.Reader, maxBody int, onNoise func(kind, detail string)) *FrameReader {
	if maxBody <= 0 {
		maxBody = DefaultMaxBody
	}
	maxBody = min(maxBody, 1<<50) // so that parseLength cannot overflow
	if onNoise == nil {
		onNoise = func(string, string) {}
	}
	return &FrameReader{br: bufio.NewReaderSize(r, readBufSize), maxBody: maxBody, onNoise: onNoise}
}

// ReadFrame returns the next body whose header block carried a valid
// Content-Length. The returned slice is valid only until the next call.
//
// Header names are case-insensitive, headers other than Content-Length are
// ignored, and lines may end in "\r\n" or "\n". Bytes before a header are
// skipped up to the next "Content-Length:", even within a line, so a stray
// print without a newline does not swallow the frame after it. A header block
// with a missing, non-numeric or negative Content-Length is skipped. Clean EOF
// between frames (after only noise, too) returns io.EOF; EOF inside a header
// block or a body returns io.ErrUnexpectedEOF; a length above the limit
// returns an error wrapping ErrFrameTooLarge.
func (r *FrameReader) ReadFrame() ([]byte, error) {
	for {
		n, err := r.readHeader()
		if err != nil {
			return nil, err
		}
		if n >= 0 {
			return r.readBody(n)
		}
	}
}

// readHeader consumes one header block and returns its Content-Length, or -1
// when the block was unusable (already reported) and the caller should read
// the next one.
func (r *FrameReader) readHeader() (int, error) {
	inBlock := false // a header line of this block has been read
	length, bad := -1, ""
	for {
		raw, err := r.readLine() // at io.EOF, raw is an unterminated last line
		if err != nil && err != io.EOF {
			r.flushNoise()
			return -1, err
		}
		line, lf := trimEOL(raw)
		// "Content-Length:" counts even mid-line: what precedes it is a stray
		// print without a newline ("helloContent-Length: 2"). No real header
		// value contains that text, while a header-syntax check would take
		// "helloContent-Length" for some unknown header.
		i := indexFold(line, contentLength)
		switch {
		case len(line) == 0 && inBlock && err == nil: // the end of the block
			r.flushNoise()
			r.noteLF(lf)
			if bad == "" && length < 0 {
				bad = "header block has no Content-Length"
			}
			if bad != "" {
				r.onNoise("bad-header", bad)
				return -1, nil
			}
			return length, nil
		case i < 0 && !isHeaderLine(line): // stray output, blank lines between frames
			r.addNoise(raw)
		default:
			r.addNoise(line[:max(i, 0)])
			r.flushNoise()
			r.noteLF(lf)
			inBlock = true
			if i < 0 {
				break // some other header: ignored
			}
			v := bytes.TrimSpace(line[i+len(contentLength):])
			n, ok, perr := r.parseLength(v)
			switch {
			case perr != nil:
				return -1, perr
			case !ok:
				bad = fmt.Sprintf("Content-Length %q is not a non-negative integer", v)
			case length >= 0 && n != length:
				bad = "conflicting Content-Length headers"
			default:
				length = n
			}
		}
		if err == io.EOF {
			r.flushNoise()
			if inBlock {
				return -1, io.ErrUnexpectedEOF
			}
			return -1, io.EOF
		}
	}
}

// parseLength parses a Content-Length value: decimal digits only, so signs,
// spaces inside and fractions are all "not a number" (ok false). A number
// above the limit, however many digits it has, is ErrFrameTooLarge.
func (r *FrameReader) parseLength(v []byte) (n int, ok bool, err error) {
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false, nil
		}
		if n <= r.maxBody { // saturate: once over the limit it stays over
			n = n*10 + int(c-'0')
		}
	}
	if n > r.maxBody {
		return 0, false, fmt.Errorf("%w: Content-Length %s exceeds the limit of %d bytes", ErrFrameTooLarge, v, r.maxBody)
	}
	return n, len(v) > 0, nil
}

// readBody reads an n-byte body: from the read buffer when it fits there
// (no copy), otherwise into r.body.
func (r *FrameReader) readBody(n int) ([]byte, error) {
	if n <= r.br.Size() {
		b, err := r.br.Peek(n)
		if err != nil {
			return nil, unexpected(err)
		}
		r.br.Discard(n)
		return b, nil
	}
	b := r.body
	if cap(b) < n {
		b = make([]byte, n)
		if n <= maxRetainedBody {
			r.body = b
		}
	}
	b = b[:n]
	if _, err := io.ReadFull(r.br, b); err != nil {
		return nil, unexpected(err)
	}
	return b, nil
}

// readLine returns the next line including its '\n'; the slice is valid
// until the next read. At end of input it returns the unterminated rest
// (possibly empty) with the error. Lines longer than MaxHeaderLine are
// consumed by skipLong and never returned.
func (r *FrameReader) readLine() ([]byte, error) {
	const window = MaxHeaderLine + len("\r\n")
	for scanned := 0; ; { // bytes known to hold no '\n': a trickling writer costs O(n)
		n := r.br.Buffered()
		buf, _ := r.br.Peek(n)
		i := bytes.IndexByte(buf[scanned:min(n, window)], '\n')
		if i >= 0 {
			i += scanned
		}
		scanned = min(n, window)
		if content, _ := trimEOL(buf[:i+1]); i >= 0 && len(content) <= MaxHeaderLine {
			r.br.Discard(i + 1)
			return buf[:i+1], nil
		}
		if i >= 0 || n >= window {
			if err := r.skipLong(); err != nil {
				return nil, err
			}
			scanned = 0
			continue
		}
		if _, err := r.br.Peek(n + 1); err != nil {
			rest, _ := r.br.Peek(r.br.Buffered())
			r.br.Discard(len(rest))
			return rest, err
		}
	}
}

// skipLong discards an over-long line as noise, up to and including its
// '\n', or up to a "Content-Length:" inside it, so that a long stray print
// without a newline does not cost the frame after it.
func (r *FrameReader) skipLong() error {
	from := 1 // a "Content-Length:" at the start of the long line is part of it
	for {
		buf, _ := r.br.Peek(r.br.Buffered())
		nl := bytes.IndexByte(buf[from:], '\n')
		cl := indexFold(buf[from:], contentLength)
		switch {
		case cl >= 0 && (nl < 0 || cl < nl):
			r.skip(buf[:from+cl])
			return nil
		case nl >= 0:
			r.skip(buf[:from+nl+1])
			return nil
		}
		// Keep a tail that may hold the start of a "Content-Length:".
		keep := len(contentLength) - 1
		r.skip(buf[:len(buf)-keep])
		from = 0
		if _, err := r.br.Peek(keep + 1); err != nil {
			rest, _ := r.br.Peek(r.br.Buffered())
			r.skip(rest)
			return err
		}
	}
}

// skip consumes b, the next buffered bytes, as noise.
func (r *FrameReader) skip(b []byte) {
	r.addNoise(b)
	r.br.Discard(len(b))
}

// addNoise adds b to the current run of noise; the run is reported as one
// event by flushNoise, when the next header line (or the end) is reached.
func (r *FrameReader) addNoise(b []byte) {
	r.noiseN += len(b)
	if room := maxNoiseDetail - len(r.noise); room > 0 {
		r.noise = append(r.noise, b[:min(room, len(b))]...)
	}
}

func (r *FrameReader) flushNoise() {
	if r.noiseN == 0 {
		return
	}
	d := r.noise
	for k := 0; r.noiseN > len(d) && k < utf8.UTFMax-1; k++ { // cut: do not end mid-rune
		if c, size := utf8.DecodeLastRune(d); c != utf8.RuneError || size != 1 {
			break
		}
		d = d[:len(d)-1]
	}
	r.onNoise("noise", string(d))
	r.noise, r.noiseN = r.noise[:0], 0
}

// noteLF reports bare-"\n" header framing, once per reader: it works with
// this reader but not with readers that split on "\r\n\r\n", such as the
// seed guide's.
func (r *FrameReader) noteLF(lf bool) {
	if lf && !r.lfReported {
		r.lfReported = true
		r.onNoise("lf-framing", `header lines end in "\n", not "\r\n"`)
	}
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// trimEOL strips a trailing "\n" or "\r\n" from line; lf reports a bare "\n".
func trimEOL(line []byte) (content []byte, lf bool) {
	if c, ok := bytes.CutSuffix(line, []byte("\r\n")); ok {
		return c, false
	}
	return bytes.CutSuffix(line, []byte("\n"))
}

// isHeaderLine reports whether line looks like "Name: value", the name being
// an RFC 9110 token.
func isHeaderLine(line []byte) bool {
	colon := bytes.IndexByte(line, ':')
	return colon > 0 && !bytes.ContainsFunc(line[:colon], func(c rune) bool {
		return c <= ' ' || c >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, c)
	})
}

// indexFold returns the index of the first case-insensitive match of pat in
// s, or -1. (pat is "content-length:", which has no letter with a non-ASCII
// case fold, so EqualFold matches ASCII only.)
func indexFold(s, pat []byte) int {
	for i := 0; i+len(pat) <= len(s); i++ {
		if s[i]|0x20 == pat[0] && bytes.EqualFold(s[i:i+len(pat)], pat) {
			return i
		}
	}
	return -1
}

// headerRoom is the most bytes a frame header can take; frameBuf reserves
// it in front of a body so that the header can be filled in afterwards.
const headerRoom = len("Content-Length: ") + 20 + len("\r\n\r\n")

func appendHeader(b []byte, n int) []byte {
	b = append(b, "Content-Length: "...)
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, "\r\n\r\n"...)
}

// WriteFrame writes "Content-Length: N\r\n\r\n" followed by body in one
// Write call: one system call per frame on a pipe, and a peer never waits on
// half a frame because the writer was descheduled between header and body.
func WriteFrame(w io.Writer, body []byte) error {
	f := frameBufs.Get().(*frameBuf)
	defer f.free()
	f.b.Reset()
	var hdr [headerRoom]byte
	f.b.Write(appendHeader(hdr[:0], len(body)))
	f.b.Write(body)
	_, err := w.Write(f.b.Bytes())
	return err
}
