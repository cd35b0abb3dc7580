package daemon

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/synaps-cli/synaps/internal/jsonrpc"
)

// Protocol is the wire version; a hello of another version is refused.
const Protocol = 1

// maxFrame bounds one frame's body: output is sent in chunks far below
// it, so a larger frame is a broken peer.
const maxFrame = 4 << 20

// Frame types, client to daemon.
const (
	TypeHello    = "hello"    // first frame: {version}
	TypeStatus   = "status"   // the daemon's state → status
	TypeSessions = "sessions" // the hosted sessions → sessions
	TypeStop     = "stop"     // {session}: end one session, or "" the daemon → ok
	TypeNew      = "new"      // {cwd, env, args, exe, cols, rows}: start a session and attach as owner → attached
	TypeAttach   = "attach"   // {session, mode, cols, rows} → attached
	TypeInput    = "input"    // {data}: keys, owner only
	TypeResize   = "resize"   // {cols, rows}: the owner's terminal size
	TypeSend     = "send"     // {session, text}: text as if typed at the session's input → ok
	TypeDetach   = "detach"   // the client leaves; the session goes on
)

// Frame types, daemon to client.
const (
	TypeOK       = "ok"       // a request done
	TypeError    = "error"    // {error}: a request refused, with why
	TypeAttached = "attached" // {session, mode}: output frames follow, the replay first
	TypeOutput   = "output"   // {data}: what the session printed
	TypeMode     = "mode"     // {mode}: this client's mode changed (another took over)
	TypeDetached = "detached" // {reason}: the daemon let this client go; the session goes on
	TypeEnded    = "ended"    // {reason}: the session's process ended
)

// Attach modes.
const (
	ModeOwner    = "owner"    // owns the input (the default when nobody does)
	ModeObserve  = "observe"  // sees the output, never types
	ModeTakeover = "takeover" // owns the input, the previous owner observes
)

// Frame is one message either way; which fields mean something depends
// on Type (see the constants and docs/daemon.md).
type Frame struct {
	Type    string `json:"type"`
	Version int    `json:"version,omitempty"`
	// PID is the daemon's, in its answer to hello.
	PID     int    `json:"pid,omitempty"`
	Session string `json:"session,omitempty"`
	Mode    string `json:"mode,omitempty"`
	Cols    int    `json:"cols,omitempty"`
	Rows    int    `json:"rows,omitempty"`
	// Data is terminal bytes (base64 in JSON).
	Data []byte `json:"data,omitempty"`
	Text string `json:"text,omitempty"`
	// New session: where and how to start it.
	Cwd  string   `json:"cwd,omitempty"`
	Env  []string `json:"env,omitempty"`
	Args []string `json:"args,omitempty"`
	Exe  string   `json:"exe,omitempty"`

	Error    string        `json:"error,omitempty"`
	Reason   string        `json:"reason,omitempty"`
	Status   *Status       `json:"status,omitempty"`
	Sessions []SessionInfo `json:"sessions,omitempty"`
}

// Status is the daemon's answer to status.
type Status struct {
	PID      int    `json:"pid"`
	Started  string `json:"started"`
	Socket   string `json:"socket"`
	Sessions int    `json:"sessions"`
	Clients  int    `json:"clients"`
	// IdleExit is how long the daemon stays with no client and no turn
	// running ("" never).
	IdleExit string `json:"idle_exit,omitempty"`
}

// SessionInfo is one hosted session.
type SessionInfo struct {
	// ID is the synaps session id (the session file's), or "" while the
	// session's UI is still opening it; Handle always names the session.
	ID      string `json:"id,omitempty"`
	Handle  string `json:"handle"`
	PID     int    `json:"pid"`
	Cwd     string `json:"cwd"`
	Started string `json:"started"`
	Busy    bool   `json:"busy"`
	Owner   bool   `json:"owner"`     // a client owns its input
	Watch   int    `json:"observers"` // observers
}

// conn is one end of the wire: frames in, frames out.
type conn struct {
	r  *jsonrpc.FrameReader
	mu sync.Mutex // serialises writes
	w  io.Writer
}

func newConn(rw io.ReadWriter) *conn {
	return &conn{r: jsonrpc.NewFrameReader(rw, maxFrame, nil), w: rw}
}

func (c *conn) read() (*Frame, error) {
	body, err := c.r.ReadFrame()
	if err != nil {
		return nil, err
	}
	var f Frame
	if err := json.Unmarshal(body, &f); err != nil {
		return nil, badFrame{fmt.Sprintf("a frame that is not a JSON object of the daemon's wire (%v); docs/daemon.md lists the frames", err)}
	}
	if f.Type == "" {
		return nil, badFrame{`a frame without a "type"; docs/daemon.md lists the frames`}
	}
	return &f, nil
}

// badFrame is a frame that could be read but not understood: the peer is
// told so before the connection closes.
type badFrame struct{ msg string }

func (e badFrame) Error() string { return "daemon wire: " + e.msg }

func (c *conn) write(f *Frame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return jsonrpc.WriteFrame(c.w, b)
}
