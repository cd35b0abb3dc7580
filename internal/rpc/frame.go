// Package rpc is synaps's client protocol for programs: one JSON object
// per frame, commands in (prompt, follow_up, abort, compact, new_session,
// get_messages, set_model, get_available_models, get_session_stats,
// get_state, shutdown) and events out (ready, message_update, agent_end,
// response, error, and synaps's own). `synaps rpc` carries the frames as
// lines on stdio; `synaps server` as WebSocket messages. The shapes are
// SynapsCLI's rpc protocol version 1, so a bridge written for it drives
// synaps unchanged; docs/rpc.md and docs/rpc.schema.json describe them.
//
// A client (Serve) is a front-end of a host.Session like any other: its
// commands call the session's methods, and the session's events, which
// every client of the session sees, become its frames.
package rpc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// ProtocolVersion is what the ready event advertises.
const ProtocolVersion = 1

// MaxFrame bounds an inbound frame: 1 MiB, as upstream. A longer one is
// refused with an error event, and the client goes on.
const MaxFrame = 1 << 20

// ErrFrameTooLarge is a frame over MaxFrame.
var ErrFrameTooLarge = fmt.Errorf("frame larger than %d bytes (1 MiB)", MaxFrame)

// Conn carries frames: one JSON object each, in order. ReadFrame returns
// io.EOF when the peer is done, ErrFrameTooLarge for a frame it skipped;
// WriteFrame may be called from several goroutines.
type Conn interface {
	ReadFrame(ctx context.Context) ([]byte, error)
	WriteFrame(ctx context.Context, frame []byte) error
}

// Lines is a Conn over a reader and a writer: a frame per line (stdio).
func Lines(r io.Reader, w io.Writer) Conn {
	return &lines{r: bufio.NewReaderSize(r, 64<<10), w: bufio.NewWriter(w)}
}

type lines struct {
	r  *bufio.Reader
	mu sync.Mutex // serialises writes
	w  *bufio.Writer
}

// ReadFrame reads the next line without its newline; a line over
// MaxFrame is read to its end and dropped.
func (l *lines) ReadFrame(context.Context) ([]byte, error) {
	var buf []byte
	tooLarge := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !tooLarge {
			if len(buf)+len(chunk) > MaxFrame+2 { // +2: \r\n
				tooLarge, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && (len(buf) > 0 || tooLarge):
			// A last line without a newline still counts.
		case err != nil:
			return nil, err
		}
		frame := bytes.TrimRight(buf, "\r\n")
		if tooLarge || len(frame) > MaxFrame {
			return nil, ErrFrameTooLarge
		}
		return frame, nil
	}
}

func (l *lines) WriteFrame(_ context.Context, frame []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Write(frame)
	l.w.WriteByte('\n')
	return l.w.Flush()
}
