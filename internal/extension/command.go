package extension

// Interactive plugin commands: command.invoke, whose output streams back
// as command.output notifications (matched by request id) and task.*
// progress notifications, handed to the UI as they come.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/jsonrpc"
	"github.com/synaps-cli/synaps/internal/plural"
)

// CommandEvent is one piece of an interactive command's output.
type CommandEvent struct {
	// Kind is text, system, error, table or done for command.output, or
	// task for a task.* notification.
	Kind    string
	Content string
	Headers []string
	Rows    [][]string
	Task    *TaskEvent
}

// TaskEvent is a task.* notification: Stage is start, update, log or
// done.
type TaskEvent struct {
	Stage, ID, Label, TaskKind string
	Current, Total             *uint64
	Message, Line, Error       string
}

// Lines renders the event as text lines, for a transcript: a table's
// headers and rows joined with two spaces (as SynapsCLI shows them), a
// task as "[task label] …".
func (ev CommandEvent) Lines() []string {
	switch ev.Kind {
	case "table":
		out := []string{strings.Join(ev.Headers, "  ")}
		for _, r := range ev.Rows {
			out = append(out, strings.Join(r, "  "))
		}
		return out
	case "task":
		t := ev.Task
		name := t.ID
		if t.Label != "" {
			name = t.Label
		}
		switch t.Stage {
		case "start":
			return []string{fmt.Sprintf("[task %s] started", name)}
		case "update":
			s := fmt.Sprintf("[task %s]", name)
			if t.Current != nil && t.Total != nil && *t.Total > 0 {
				s += fmt.Sprintf(" %d/%d (%d%%)", *t.Current, *t.Total, *t.Current*100 / *t.Total)
			} else if t.Current != nil {
				s += fmt.Sprintf(" %d", *t.Current)
			}
			if t.Message != "" {
				s += " " + t.Message
			}
			return []string{s}
		case "log":
			return []string{fmt.Sprintf("[task %s] %s", name, t.Line)}
		case "done":
			if t.Error != "" {
				return []string{fmt.Sprintf("[task %s] failed: %s", name, t.Error)}
			}
			return []string{fmt.Sprintf("[task %s] done", name)}
		}
		return nil
	case "done":
		return nil
	}
	return strings.Split(ev.Content, "\n")
}

// Command output budget, as SynapsCLI's: events kept per command, and
// bytes of text.
const (
	maxCommandEvents = 1024
	maxCommandBytes  = 256 << 10
)

// commandSink passes one command's events to the UI in order without
// blocking the connection's read loop: events queue (within the budget)
// and a goroutine hands them on; beyond the budget they are counted and
// dropped.
type commandSink struct {
	on     func(CommandEvent)
	wake   chan struct{}     // a token when events were queued or the sink closed
	done   chan struct{}     // closed when every event was handed on
	labels map[string]string // task id → label, for later task events; read-loop only

	// Counted on the read loop, under the extension's lock.
	events, bytes, dropped int
	sawDone                bool

	mu     sync.Mutex // guards queue and closed
	queue  []CommandEvent
	closed bool
}

func newCommandSink(on func(CommandEvent)) *commandSink {
	s := &commandSink{on: on, wake: make(chan struct{}, 1), done: make(chan struct{}), labels: map[string]string{}}
	go s.run()
	return s
}

func (s *commandSink) run() {
	defer close(s.done)
	for range s.wake {
		for {
			s.mu.Lock()
			batch, closed := s.queue, s.closed
			s.queue = nil
			s.mu.Unlock()
			for _, ev := range batch {
				if s.on != nil {
					s.on(ev)
				}
			}
			if closed && len(batch) == 0 {
				return
			}
			if len(batch) == 0 {
				break
			}
		}
	}
}

func (s *commandSink) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// push queues ev; it runs on the read loop (under the extension's lock).
func (s *commandSink) push(ev CommandEvent) {
	if ev.Kind == "done" {
		if s.sawDone {
			return // only the first done counts
		}
		s.sawDone = true
	}
	size := len(ev.Content)
	for _, r := range ev.Rows {
		for _, c := range r {
			size += len(c)
		}
	}
	if s.events >= maxCommandEvents || s.bytes+size > maxCommandBytes {
		s.dropped++
		return
	}
	s.events++
	s.bytes += size
	s.mu.Lock()
	s.queue = append(s.queue, ev)
	s.mu.Unlock()
	s.signal()
}

// close ends the stream and waits until the UI has seen every event.
func (s *commandSink) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.signal()
	<-s.done
}

// InvokeCommand runs the interactive command name of the plugin id with
// the user's words, handing on each output event as it comes. It returns
// when the extension has answered (the answer itself carries nothing for
// the user) or the 120 s deadline passes.
func (h *Host) InvokeCommand(ctx context.Context, id, name string, args []string, on func(CommandEvent)) error {
	e := h.extension(id)
	if e == nil {
		return fmt.Errorf("the extension of plugin %s is not running (`synaps extensions list` says why), so /%s:%s cannot run", id, id, name)
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	reqID := hex.EncodeToString(b[:])
	sink := newCommandSink(on)
	e.mu.Lock()
	if e.commands == nil {
		e.commands = map[string]*commandSink{}
	}
	e.commands[reqID] = sink
	e.mu.Unlock()
	if args == nil {
		args = []string{}
	}
	ctx, cancel := context.WithTimeout(ctx, e.env.deadline(contract.MethodCommandInvoke))
	defer cancel()
	_, err := e.call(ctx, contract.MethodCommandInvoke, map[string]any{"command": name, "args": args, "request_id": reqID},
		callOpts{doing: "running command", what: name, noRetry: "a command may act, so it is not run twice"})
	e.mu.Lock()
	delete(e.commands, reqID)
	dropped := sink.dropped
	e.mu.Unlock()
	sink.close()
	if dropped > 0 && on != nil {
		on(CommandEvent{Kind: "system", Content: fmt.Sprintf("(%s of /%s:%s %s dropped: over %d events or %d KiB)", plural.Count(dropped, "more output event"), id, name, plural.Pick(dropped, "was", "were"), maxCommandEvents, maxCommandBytes>>10)})
	}
	if err != nil {
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			return fmt.Errorf("interactive plugin command %s:%s failed: %s", id, name, rpcErr.Message)
		}
		return fmt.Errorf("interactive plugin command %s:%s failed: %w", id, name, err)
	}
	return nil
}

// commandNotification routes a command.output or task.* notification to
// the running commands; it reports whether method was one of them.
func (e *Extension) commandNotification(method string, params json.RawMessage) bool {
	switch method {
	case contract.NotifyCommandOutput:
		var p struct {
			RequestID string          `json:"request_id"`
			Event     json.RawMessage `json:"event"`
		}
		if json.Unmarshal(params, &p) != nil || p.RequestID == "" {
			e.log.note("malformed command.output (no request_id), skipped: %s", truncate(string(params), 200))
			return true
		}
		body := params
		if len(p.Event) > 0 && p.Event[0] == '{' {
			body = p.Event
		}
		ev, err := decodeCommandOutput(body)
		if err != nil {
			e.log.note("malformed command.output, skipped: %v", err)
			return true
		}
		e.mu.Lock()
		if s := e.commands[p.RequestID]; s != nil {
			s.push(ev)
		}
		e.mu.Unlock()
		return true
	case contract.NotifyTaskStart, contract.NotifyTaskUpdate, contract.NotifyTaskLog, contract.NotifyTaskDone:
		var t struct {
			ID      string  `json:"id"`
			Label   string  `json:"label"`
			Kind    string  `json:"kind"`
			Current *uint64 `json:"current"`
			Total   *uint64 `json:"total"`
			Message string  `json:"message"`
			Line    string  `json:"line"`
			Error   *string `json:"error"`
		}
		if json.Unmarshal(params, &t) != nil || t.ID == "" {
			e.log.note("malformed %s (no id), skipped: %s", method, truncate(string(params), 200))
			return true
		}
		ev := &TaskEvent{Stage: strings.TrimPrefix(method, "task."), ID: t.ID, Label: t.Label, TaskKind: t.Kind,
			Current: t.Current, Total: t.Total, Message: t.Message, Line: t.Line}
		if t.Error != nil {
			ev.Error = *t.Error
		}
		e.mu.Lock()
		// Tasks belong to no request id: every running command sees them.
		for _, s := range e.commands {
			if ev.Label == "" {
				ev.Label = s.labels[t.ID]
			} else {
				s.labels[t.ID] = ev.Label
			}
			s.push(CommandEvent{Kind: "task", Task: ev})
		}
		e.mu.Unlock()
		return true
	}
	return false
}

// decodeCommandOutput reads one command.output event.
func decodeCommandOutput(body json.RawMessage) (CommandEvent, error) {
	var ev struct {
		Kind    string     `json:"kind"`
		Content string     `json:"content"`
		Headers []string   `json:"headers"`
		Rows    [][]string `json:"rows"`
	}
	if err := json.Unmarshal(body, &ev); err != nil {
		return CommandEvent{}, err
	}
	switch ev.Kind {
	case "text", "system", "done", "table":
	case "error":
		if ev.Content == "" {
			return CommandEvent{}, errors.New("an error event without content")
		}
	default:
		return CommandEvent{}, fmt.Errorf("unknown kind %q (text, system, error, table, done)", ev.Kind)
	}
	return CommandEvent{Kind: ev.Kind, Content: ev.Content, Headers: ev.Headers, Rows: ev.Rows}, nil
}
