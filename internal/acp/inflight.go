package acp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
)

// maxLine is the longest line the SDK reads (its scanner's limit); a
// longer one ends the connection there, so it is never counted.
const maxLine = 10 << 20

// inflight stands between the editor's pipes and the SDK's connection
// and counts the requests that wait for an answer, each way, so that the
// end of the editor's input (stdin) ends the connection only once every
// request the editor sent has been answered. The SDK alone would end it
// the moment its reader sees EOF, cancelling the requests it is still
// handling: a script that pipes initialize, session/new and
// session/prompt into `synaps acp` would get no answer to its prompt.
//
// Held back, the EOF lets a running turn go to its end: its
// notifications and its answer are written. A request synaps sends the
// editor meanwhile (a permission request, a file read) cannot be
// answered any more, so it is answered here, with an error, and the
// turn goes on as with any failed request: a call that needed
// permission does not run. The EOF goes through at once when writing to
// the editor fails (no answer could reach it) or ctx ends.
//
// The SDK reads on one goroutine and writes each message in one Write,
// a whole line; mu guards the state after it, cond signals its changes.
type inflight struct {
	in  *bufio.Reader
	out io.Writer

	// line is the line being read, kept while it fits maxLine; long
	// says it did not.
	line []byte
	long bool
	// rest is what Read has yet to hand the SDK: the end of a chunk, or
	// the answers made up at EOF.
	rest []byte

	mu   sync.Mutex
	cond *sync.Cond
	// unanswered counts the editor's requests read and not yet answered.
	unanswered int
	// asked holds synaps's requests the editor has not answered: their
	// method by id (the raw JSON).
	asked map[string]string
	// done is why the EOF need not wait any more: a failed write, ctx.
	done error
}

func newInflight(in io.Reader, out io.Writer) *inflight {
	f := &inflight{in: bufio.NewReaderSize(in, 64<<10), out: out, asked: map[string]string{}}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// message is the part of a JSON-RPC message that says what it is,
// decoded as the SDK decodes it (the same field types), so that what it
// skips as malformed is not counted here either.
type message struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      *json.RawMessage  `json:"id,omitempty"`
	Method  string            `json:"method,omitempty"`
	Params  json.RawMessage   `json:"params,omitempty"`
	Result  json.RawMessage   `json:"result,omitempty"`
	Error   *sdk.RequestError `json:"error,omitempty"`
}

// kind sorts a line: a request (with its id), a response (to the id), or
// neither (a notification, noise).
func kind(line []byte) (request, response bool, id string, method string) {
	var m message
	if json.Unmarshal(line, &m) != nil || m.ID == nil {
		return false, false, "", ""
	}
	return m.Method != "", m.Method == "", string(*m.ID), m.Method
}

// writtenKind is kind for a message the SDK wrote, well formed: only its
// id and method are decoded, so a large tool output is scanned, not
// copied.
func writtenKind(msg []byte) (request, response bool, id string, method string) {
	var m struct {
		ID     *json.RawMessage `json:"id"`
		Method string           `json:"method"`
	}
	if json.Unmarshal(msg, &m) != nil || m.ID == nil {
		return false, false, "", ""
	}
	return m.Method != "", m.Method == "", string(*m.ID), m.Method
}

// Read hands the SDK the editor's input, counting its requests and
// noting its answers as each line passes; at the end of the input it
// waits until every request read has been answered.
func (f *inflight) Read(p []byte) (int, error) {
	for len(f.rest) == 0 {
		chunk, err := f.in.ReadSlice('\n')
		if len(chunk) > 0 {
			// A whole line, or part of one longer than the buffer
			// (bufio.ErrBufferFull), or the last line, with no newline.
			f.see(chunk, chunk[len(chunk)-1] == '\n')
			f.rest = chunk
			break
		}
		if len(f.line) > 0 {
			// The last line had no newline; the SDK takes it all the
			// same.
			f.see(nil, true)
		}
		if err := f.drain(err); err != nil {
			return 0, err
		}
	}
	n := copy(p, f.rest)
	f.rest = f.rest[n:]
	return n, nil
}

// see follows the input line by line: chunk is more of the current line,
// whole says the line ends with it.
func (f *inflight) see(chunk []byte, whole bool) {
	if !f.long {
		if len(f.line)+len(chunk) > maxLine {
			f.long, f.line = true, nil
		} else {
			f.line = append(f.line, chunk...)
		}
	}
	if !whole {
		return
	}
	line, long := f.line, f.long
	f.line, f.long = f.line[:0], false
	if long {
		return
	}
	request, response, id, _ := kind(line)
	f.mu.Lock()
	switch {
	case request:
		f.unanswered++
	case response:
		delete(f.asked, id)
	}
	f.mu.Unlock()
}

// drain waits, at the end of the input, for the editor's requests to be
// answered; it returns end (io.EOF, or the read error) for the SDK, which
// then ends the connection, or nil with answers to synaps's own requests
// in rest, made up meanwhile (see refuse).
func (f *inflight) drain(end error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.unanswered > 0 && f.done == nil {
		if len(f.asked) > 0 {
			f.rest = f.refuse()
			return nil
		}
		f.cond.Wait()
	}
	return end
}

// refuse makes up the answers to synaps's unanswered requests: errors
// that say the editor's input is closed. Called with mu held.
func (f *inflight) refuse() []byte {
	var b []byte
	for id, method := range f.asked {
		raw := json.RawMessage(id)
		line, err := json.Marshal(message{JSONRPC: "2.0", ID: &raw, Error: &sdk.RequestError{
			Code:    -32603,
			Message: fmt.Sprintf("the editor closed synaps's input (stdin), so %s cannot be answered", method),
		}})
		if err != nil {
			continue
		}
		b = append(append(b, line...), '\n')
		delete(f.asked, id)
	}
	return b
}

// Write sends one message the SDK wrote to the editor, noting synaps's
// requests and the answers to the editor's.
func (f *inflight) Write(p []byte) (int, error) {
	request, response, id, method := writtenKind(p)
	if request {
		// Noted before it is sent, so that its answer is never read
		// first.
		f.mu.Lock()
		f.asked[id] = method
		f.cond.Broadcast()
		f.mu.Unlock()
	}
	n, err := f.out.Write(p)
	if err != nil {
		f.finish(fmt.Errorf("writing to the editor: %w", err))
		return n, err
	}
	if response {
		f.mu.Lock()
		f.unanswered = max(f.unanswered-1, 0)
		f.cond.Broadcast()
		f.mu.Unlock()
	}
	return n, nil
}

// finish lets the EOF through without waiting for answers.
func (f *inflight) finish(why error) {
	f.mu.Lock()
	if f.done == nil {
		f.done = why
	}
	f.cond.Broadcast()
	f.mu.Unlock()
}
