package builtin

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/tool"
)

const (
	// readDefaultLimit is how many lines read returns without a limit.
	readDefaultLimit = 2000
	// readMaxLineLen is where read cuts a long line, in bytes.
	readMaxLineLen = 2000
	// readMaxFileSize is the largest file read returns whole; larger files
	// can still be read in parts with offset and limit.
	readMaxFileSize = 10 << 20
)

// readTool returns a file's lines, numbered like `cat -n`.
type readTool struct{ o Options }

var readSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"path":   {"type": "string", "description": "File to read, relative to the working directory or absolute."},
		"offset": {"type": "integer", "minimum": 1, "description": "First line to return (1-based). Default 1."},
		"limit":  {"type": "integer", "minimum": 1, "description": "How many lines to return. Default 2000."}
	},
	"required": ["path"],
	"additionalProperties": false
}`)

func (r *readTool) Spec() tool.Spec {
	return tool.Spec{
		RuntimeName: "read",
		ReadOnly:    true,
		Source:      Source,
		Description: "Read a text file. Returns its lines numbered like `cat -n` (line number, tab, text), " +
			"up to 2000 lines from offset; lines longer than 2000 bytes are cut. When more lines remain the output ends " +
			"with the offset to continue from. PNG, JPEG, GIF and WebP images are returned as images, for models that take them; " +
			"other binary files are refused. The line numbers are not part of the file: " +
			"leave them out of edit's old_string.",
		InputSchema: readSchema,
	}
}

func (r *readTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	var in struct {
		Path   *string  `json:"path"`
		Offset *float64 `json:"offset"`
		Limit  *float64 `json:"limit"`
	}
	if err := decode(input, &in); err != nil {
		return fail("%v", err), nil
	}
	if in.Path == nil || *in.Path == "" {
		return fail("path is required"), nil
	}
	offset, limit := 1, readDefaultLimit
	if in.Offset != nil {
		if *in.Offset < 1 || *in.Offset != float64(int(*in.Offset)) {
			return fail("offset must be a whole number ≥ 1 (the first line is 1)"), nil
		}
		offset = int(*in.Offset)
	}
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit != float64(int(*in.Limit)) {
			return fail("limit must be a whole number ≥ 1"), nil
		}
		limit = int(*in.Limit)
	}

	name := *in.Path
	p := r.o.resolve(name)
	fi, err := os.Stat(p)
	if err != nil {
		return fsError(name, err), nil
	}
	if fi.IsDir() {
		return fail("%s is a directory, not a file; use ls to list it", name), nil
	}
	if !fi.Mode().IsRegular() { // a FIFO or device could block or never end
		return fail("%s is not a regular file; use bash to read it", name), nil
	}
	f, err := os.Open(p)
	if err != nil {
		return fsError(name, err), nil
	}
	defer f.Close()
	large := fi.Size() > readMaxFileSize
	if large && in.Offset == nil && in.Limit == nil {
		return fail("%s is %s, more than the %s that read returns at once; read part of it with offset and limit (lines), "+
			"or use bash (head, tail, sed -n) or grep", name, formatSize(fi.Size()), formatSize(readMaxFileSize)), nil
	}
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(sniffLen)
	if mt := imageType(head); mt != "" {
		return readImage(name, br, fi.Size(), mt), nil
	}
	if isBinary(head) {
		return fail("%s looks like a binary file (it contains NUL bytes); inspect it with bash, e.g. `file %s` or `xxd %s | head`",
			name, shellQuote(name), shellQuote(name)), nil
	}
	// editor: the text is the editor's, unsaved changes included, of
	// the lines from offset on (editorLines).
	var editor bool
	var out strings.Builder
	if r.o.Files != nil {
		text, ok, note, err := r.editorLines(ctx, p, fi.Size(), offset, limit)
		if err != nil {
			return fail("%s: the editor could not read it: %v", name, err), nil
		}
		if ok {
			br, editor = bufio.NewReaderSize(strings.NewReader(text), 64<<10), true
		}
		out.WriteString(note)
	}

	var (
		buf     []byte
		lineNo  int // lines read so far
		shown   int
		capped  bool // stopped by MaxOutput rather than limit
		atEOF   bool
		readErr error
	)
	if editor {
		lineNo = offset - 1 // the editor's text starts at offset
	}
	for {
		if lineNo&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return tool.Result{}, err
			}
		}
		keep := 0
		if lineNo+1 >= offset {
			keep = readMaxLineLen + 1
		}
		var n int
		buf, n, readErr = readLine(br, keep, buf)
		if readErr != nil && n == 0 {
			atEOF = true
			break
		}
		lineNo++
		if lineNo < offset {
			if readErr != nil {
				atEOF = true
				break
			}
			continue
		}
		text := string(buf)
		if n > readMaxLineLen {
			cut := trimPartialEnd(buf[:readMaxLineLen])
			text = fmt.Sprintf("%s… [line cut: %d more bytes]", cut, n-len(cut))
		}
		entry := fmt.Sprintf("%6d\t%s\n", lineNo, text)
		if shown > 0 && out.Len()+len(entry) > r.o.MaxOutput {
			capped = true
			lineNo-- // this line is not shown
			break
		}
		out.WriteString(entry)
		shown++
		if readErr != nil {
			atEOF = true
			break
		}
		if shown == limit {
			break
		}
	}
	if readErr != nil && readErr != io.EOF {
		return fsError(name, readErr), nil
	}

	if shown == 0 {
		if editor && offset > 1 {
			return fail("offset %d is past the end of %s", offset, name), nil
		}
		if lineNo == 0 {
			return tool.Result{Output: "(empty file)"}, nil
		}
		return fail("offset %d is past the end of %s, which has %s", offset, name, plural.Count(lineNo, "line")), nil
	}
	if editor && !atEOF && !capped {
		// The editor was asked for one line more than limit: is it
		// there?
		if _, err := br.Peek(1); err != nil {
			atEOF = true
		}
	}
	if atEOF {
		return tool.Result{Output: out.String()}, nil
	}
	next := lineNo + 1
	why := ""
	if capped {
		why = fmt.Sprintf("output limit of %s reached; ", formatSize(int64(r.o.MaxOutput)))
	}
	if large || editor {
		fmt.Fprintf(&out, "… %sthe file continues; use offset=%d to read on", why, next)
		return tool.Result{Output: out.String()}, nil
	}
	rest := 0
	if capped {
		rest = 1 // the line that did not fit was already consumed
	}
	for {
		if rest&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return tool.Result{}, err
			}
		}
		var n int
		var err error
		_, n, err = readLine(br, 0, nil)
		if err == nil || n > 0 {
			rest++
		}
		if err != nil {
			break
		}
	}
	if rest == 0 {
		return tool.Result{Output: out.String()}, nil
	}
	word := "lines"
	if rest == 1 {
		word = "line"
	}
	fmt.Fprintf(&out, "… %s%d more %s; use offset=%d to read on", why, rest, word, next)
	return tool.Result{Output: out.String()}, nil
}

// readLine reads one line, keeping at most keep bytes of it in buf (reused),
// without its "\n" or "\r\n". n is the length of the whole line without
// the terminator. There was a line unless err != nil and n == 0.
func readLine(br *bufio.Reader, keep int, buf []byte) (line []byte, n int, err error) {
	buf = buf[:0]
	var prev byte // the byte before the current fragment
	for {
		frag, err := br.ReadSlice('\n')
		if room := keep - len(buf); room > 0 {
			buf = append(buf, frag[:min(room, len(frag))]...)
		}
		n += len(frag)
		if err == bufio.ErrBufferFull {
			prev = frag[len(frag)-1]
			continue
		}
		if err == nil { // drop "\n" or "\r\n"
			n--
			before := prev
			if len(frag) >= 2 {
				before = frag[len(frag)-2]
			}
			if n > 0 && before == '\r' {
				n--
			}
		}
		if len(buf) > n {
			buf = buf[:n]
		}
		return buf, n, err
	}
}

// shellQuote quotes s for a bash command line when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./+:@%", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// maxImage is the largest picture read returns: base64 makes it at most
// 5 MB, the most Anthropic takes in one image.
const maxImage = 3750 << 10

// imageType is the MIME type of a picture the models take (PNG, JPEG,
// GIF, WebP), by its first bytes, or "".
func imageType(head []byte) string {
	switch mt := http.DetectContentType(head); mt {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return mt
	}
	return ""
}

// readImage returns a picture as an image of the result, with one line of
// text saying what it is (what a model that takes no images gets).
func readImage(name string, r io.Reader, size int64, mediaType string) tool.Result {
	if size > maxImage {
		return fail("%s is a %s image of %s, more than the %s a model takes in one image; make it smaller first, e.g. with bash: `convert %s -resize 50%% smaller.png`",
			name, mediaType, formatSize(size), formatSize(maxImage), shellQuote(name))
	}
	data, err := io.ReadAll(io.LimitReader(r, maxImage+1))
	if err != nil {
		return fail("reading %s: %v", name, err)
	}
	return tool.Result{
		Output: fmt.Sprintf("%s: %s image, %s (attached as an image)", name, mediaType, formatSize(int64(len(data)))),
		Media:  &tool.Media{Images: []tool.Image{{MediaType: mediaType, Data: base64.StdEncoding.EncodeToString(data)}}},
	}
}
