package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/llm"
)

// command is an inbound frame: its type, the correlation id, and the
// fields the commands take.
type command struct {
	Type        string            `json:"type"`
	ID          *string           `json:"id"`
	Message     *string           `json:"message"`
	Attachments []host.Attachment `json:"attachments"`
	Model       string            `json:"model"`
}

// commands are the command types, as the error for an unknown one lists
// them.
var commands = []string{"prompt", "follow_up", "steer", "abort", "compact", "new_session", "get_messages",
	"set_model", "get_available_models", "get_session_stats", "get_state", "shutdown"}

// Options shape a client.
type Options struct {
	// Name labels this client's turns (host.Input.Tag), so that its
	// prompt is answered when its own turn is done; unique per session.
	Name string
	// Buffer is the client's event buffer (host.Session.Subscribe).
	Buffer int
	// Owner says the client owns the session (synaps rpc): its shutdown
	// stops a running turn, as abort does, and waits for it, so that
	// the turn's agent_end and its prompt's response are written before
	// Serve returns; every request gets its answer. The clients of
	// synaps server share the session: a shutdown there only ends that
	// client, and the turn goes on for the others.
	Owner bool
}

// pending is a prompt waiting for its turn to end.
type pending struct{ id, command string }

// client is one peer of a session.
type client struct {
	s    *host.Session
	conn Conn
	opts Options
	// mu guards pending (the ids of this client's prompts whose turns
	// have not ended, by tag), sub and closing.
	mu      sync.Mutex
	pending map[string]pending
	next    int
	sub     *host.Subscription
	closing bool
	// wg counts commands answered on goroutines of their own.
	wg sync.WaitGroup
}

// Serve runs one client of s over conn: the ready event, then commands
// until shutdown, the end of input or a broken conn (its error). Every
// event of the session reaches the client meanwhile. At the end of input
// a running turn is waited for, and its events sent, so that a script
// that pipes in one prompt gets the whole answer; at shutdown an owner
// aborts the turn and waits for its end (its events sent), another
// client does not wait. A bad frame is
// answered with an error event; nothing a client sends ends the session,
// which the caller closes (or keeps, for other clients).
func Serve(ctx context.Context, s *host.Session, conn Conn, o Options) error {
	c := &client{s: s, conn: conn, opts: o, pending: map[string]pending{}}
	if c.opts.Name == "" {
		c.opts.Name = "rpc"
	}
	st := s.State()
	c.sub = s.Subscribe(o.Buffer)
	if err := c.send(ctx, map[string]any{"type": "ready", "session_id": st.ID, "model": st.Model, "protocol_version": ProtocolVersion, "cwd": st.WorkDir}); err != nil {
		c.sub.Close()
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	forwarded := make(chan struct{})
	go func() {
		defer close(forwarded)
		c.forward(ctx)
	}()
	end, err := c.read(ctx)
	switch {
	case end == endOfInput:
		s.Wait(ctx)
	case end == endShutdown && c.opts.Owner:
		s.Abort()
		s.Wait(ctx)
	}
	c.wg.Wait()
	// Closing the subscription lets the forwarder send what is buffered
	// and stop.
	c.mu.Lock()
	c.closing = true
	c.sub.Close()
	c.mu.Unlock()
	<-forwarded
	return err
}

// ending is how a client's input ended.
type ending int

const (
	endBroken   ending = iota // the conn failed
	endOfInput                // the input ended (EOF)
	endShutdown               // a shutdown command
)

// read handles commands until the end and says which end it was.
func (c *client) read(ctx context.Context) (ending, error) {
	for {
		frame, err := c.conn.ReadFrame(ctx)
		switch {
		case errors.Is(err, ErrFrameTooLarge):
			c.fail(ctx, nil, err.Error()+"; the frame was dropped")
			continue
		case errors.Is(err, io.EOF):
			return endOfInput, nil
		case err != nil:
			return endBroken, err
		}
		if len(strings.TrimSpace(string(frame))) == 0 {
			continue
		}
		var cmd command
		if err := json.Unmarshal(frame, &cmd); err != nil {
			c.fail(ctx, nil, commandError(err))
			continue
		}
		if cmd.Type == "shutdown" {
			return endShutdown, nil
		}
		c.handle(ctx, cmd)
	}
}

// handle runs one command and answers it.
func (c *client) handle(ctx context.Context, cmd command) {
	if cmd.Type == "" {
		c.fail(ctx, cmd.ID, fmt.Sprintf("the command has no \"type\"; the types are %s", strings.Join(commands, ", ")))
		return
	}
	if !slices.Contains(commands, cmd.Type) {
		c.fail(ctx, cmd.ID, fmt.Sprintf("unknown command type %q; the types are %s", cmd.Type, strings.Join(commands, ", ")))
		return
	}
	if cmd.ID == nil {
		c.fail(ctx, nil, fmt.Sprintf("command %s has no id; every command but shutdown carries an \"id\" string, echoed in its response", cmd.Type))
		return
	}
	id := *cmd.ID
	respond := func(body map[string]any) {
		body["type"], body["id"], body["command"] = "response", id, cmd.Type
		c.send(ctx, body)
	}
	switch cmd.Type {
	case "prompt", "follow_up", "steer":
		if cmd.Message == nil {
			c.fail(ctx, cmd.ID, fmt.Sprintf("%s needs a \"message\" string", cmd.Type))
			return
		}
		c.prompt(ctx, cmd, id, respond)
	case "abort":
		running := c.s.Abort()
		c.s.Wait(ctx)
		respond(map[string]any{"ok": true, "aborted": running})
	case "compact":
		c.async(func() {
			if err := c.s.Compact(ctx); err != nil {
				c.fail(ctx, cmd.ID, "compact: "+err.Error())
				return
			}
			respond(map[string]any{"ok": true, "session_id": c.s.ID()})
		})
	case "new_session":
		sid, err := c.s.New(ctx)
		if err != nil {
			c.fail(ctx, cmd.ID, "new_session: "+err.Error())
			return
		}
		respond(map[string]any{"session_id": sid})
	case "get_messages":
		msgs := c.s.Messages()
		if msgs == nil {
			msgs = []llm.Message{}
		}
		respond(map[string]any{"messages": msgs})
	case "set_model":
		if cmd.Model == "" {
			c.fail(ctx, cmd.ID, "set_model needs a \"model\", e.g. \"anthropic/claude-sonnet-4-5\" (get_available_models lists them)")
			return
		}
		if err := c.s.SetModel(cmd.Model); err != nil {
			c.fail(ctx, cmd.ID, "set_model: "+err.Error())
			return
		}
		respond(map[string]any{"model": c.s.State().Model})
	case "get_available_models":
		c.async(func() {
			choices, notes, err := c.s.Models(ctx)
			if err != nil {
				c.fail(ctx, cmd.ID, "get_available_models: "+err.Error())
				return
			}
			models := []map[string]any{}
			for _, m := range choices {
				models = append(models, map[string]any{"provider": provider(m.Name), "model_id": m.Name, "model_name": m.Name, "from": m.From})
			}
			if notes == nil {
				notes = []string{}
			}
			respond(map[string]any{"models": models, "notes": notes})
		})
	case "get_session_stats":
		st := c.s.Stats()
		respond(map[string]any{"session_id": st.ID, "model": st.Model, "message_count": st.Messages, "requests": st.Requests,
			"input_tokens": st.Usage.InputTokens, "output_tokens": st.Usage.OutputTokens,
			"cache_read_input_tokens": st.Usage.CacheReadTokens, "cache_creation_input_tokens": st.Usage.CacheWriteTokens,
			"cost": st.Usage.CostUSD})
	case "get_state":
		st := c.s.State()
		respond(map[string]any{"streaming": st.Streaming, "busy": st.Busy, "activity": st.Activity, "model": st.Model,
			"session_id": st.ID, "message_count": st.Messages, "cwd": st.WorkDir, "clients": st.Subscribers})
	}
}

// prompt starts a turn; its response comes when the turn is done. A
// follow_up (or steer) sent while a turn runs joins that turn instead
// and is answered at once.
func (c *client) prompt(ctx context.Context, cmd command, id string, respond func(map[string]any)) {
	c.mu.Lock()
	c.next++
	tag := fmt.Sprintf("%s#%d", c.opts.Name, c.next)
	c.pending[tag] = pending{id, cmd.Type}
	c.mu.Unlock()
	err := c.s.Prompt(host.Input{Text: *cmd.Message, Attachments: cmd.Attachments, Tag: tag})
	if err == nil {
		return
	}
	c.mu.Lock()
	delete(c.pending, tag)
	c.mu.Unlock()
	if msg, ok := busyElsewhere(cmd.Type, err); ok {
		c.fail(ctx, cmd.ID, msg)
		return
	}
	if errors.Is(err, host.ErrBusy) && cmd.Type != "prompt" {
		if len(cmd.Attachments) > 0 {
			c.fail(ctx, cmd.ID, cmd.Type+" while a turn runs steers it with text only; send the attachments with the next prompt")
			return
		}
		steered, err := c.s.Steer(*cmd.Message)
		if msg, ok := busyElsewhere(cmd.Type, err); ok {
			c.fail(ctx, cmd.ID, msg)
			return
		}
		if err != nil {
			c.fail(ctx, cmd.ID, err.Error())
			return
		}
		respond(map[string]any{"ok": true, "steered": steered})
		return
	}
	if errors.Is(err, host.ErrBusy) {
		err = errors.New("another prompt is in flight; abort first, or send follow_up to steer it")
	}
	c.fail(ctx, cmd.ID, err.Error())
}

// commandOf is the command that starts each host activity other than a
// turn, as a client knows it.
var commandOf = map[string]string{"compact": "compact", "model": "set_model", "new": "new_session", "models": "get_available_models"}

// busyElsewhere is the refusal of a message (prompt, follow_up, steer)
// while the session is busy with something other than a turn, which
// can be neither steered nor aborted: it says what runs and to send the
// message again when that command has its response. ok is false for any
// other err.
func busyElsewhere(cmdType string, err error) (msg string, ok bool) {
	var be *host.BusyError
	if !errors.As(err, &be) || be.Activity == "turn" {
		return "", false
	}
	what := be.What()
	if by, ok := commandOf[be.Activity]; ok {
		return fmt.Sprintf("%s refused: %s (%s); send it again after %s's response", cmdType, what, by, by), true
	}
	return fmt.Sprintf("%s refused: %s; send it again when it ends (get_state's \"busy\" turns false)", cmdType, what), true
}

// async answers a slow command on a goroutine of its own, so that abort
// and get_state are answered meanwhile.
func (c *client) async(f func()) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		f()
	}()
}

// forward turns the session's events into frames until the
// subscription is closed or ctx ends; a client that fell behind is told
// what it lost and follows again.
func (c *client) forward(ctx context.Context) {
	c.mu.Lock()
	sub := c.sub
	c.mu.Unlock()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-sub.C:
			if !ok {
				c.mu.Lock()
				if c.closing || !errors.Is(sub.Err(), host.ErrSlow) {
					c.mu.Unlock()
					return
				}
				sub = c.s.Subscribe(c.opts.Buffer)
				c.sub = sub
				c.mu.Unlock()
				c.fail(ctx, nil, "events were lost: this client read too slowly and was dropped; it follows again from here (get_messages has the conversation)")
				continue
			}
			for _, f := range c.frames(ev) {
				if c.send(ctx, f) != nil {
					return
				}
			}
		}
	}
}

// frames are the frames an event becomes.
func (c *client) frames(ev host.Event) []map[string]any {
	update := func(e map[string]any) map[string]any { return map[string]any{"type": "message_update", "event": e} }
	if ev.Subagent != nil {
		// A subagent's steps are not the assistant's message: the agent
		// tool call's result carries its answer (SynapsCLI's protocol has
		// no frame for them).
		return nil
	}
	switch ev.Type {
	case agent.EventText:
		return []map[string]any{update(map[string]any{"type": "text_delta", "delta": ev.Text})}
	case agent.EventThinking:
		return []map[string]any{update(map[string]any{"type": "thinking_delta", "delta": ev.Text})}
	case agent.EventToolStart:
		return []map[string]any{
			update(map[string]any{"type": "toolcall_start", "tool_id": ev.Tool.ID, "tool_name": ev.Tool.Name}),
			update(map[string]any{"type": "toolcall_input", "tool_id": ev.Tool.ID, "input": rawOrEmpty(ev.Tool.Input)}),
		}
	case agent.EventToolEnd:
		e := map[string]any{"type": "toolcall_result", "tool_id": ev.Tool.ID, "result": ev.Tool.Output, "is_error": ev.Tool.IsError}
		if ev.Tool.BlockedBy != "" {
			e["blocked_by"] = ev.Tool.BlockedBy
		}
		return []map[string]any{update(e)}
	case agent.EventSteer:
		return []map[string]any{{"type": "steered", "message": ev.Text}}
	case agent.EventNotice:
		return []map[string]any{{"type": "notice", "message": ev.Text}}
	case agent.EventRetry:
		f := map[string]any{"type": "retry", "attempt": ev.Retry, "of": ev.Retries, "delay_ms": ev.Delay.Milliseconds()}
		if ev.Err != nil {
			f["error"] = ev.Err.Error()
		}
		return []map[string]any{f}
	case host.EventPrompt:
		return []map[string]any{{"type": "turn_start", "message": ev.Text, "steered": ev.Steered, "session_id": ev.SessionID}}
	case host.EventSessionChanged:
		return []map[string]any{{"type": "session_changed", "session_id": ev.Text}}
	case host.EventModelChanged:
		return []map[string]any{{"type": "model_changed", "model": ev.Text}}
	case host.EventDone:
		return c.done(ev)
	}
	return nil
}

// done is a turn's end: agent_end for every client, and for the client
// whose prompt it was, an error (if it failed) and the prompt's response.
func (c *client) done(ev host.Event) []map[string]any {
	u := ev.Usage
	out := []map[string]any{{"type": "agent_end", "usage": map[string]any{
		"input_tokens": max(0, u.InputTokens-u.CacheReadTokens-u.CacheWriteTokens), "output_tokens": u.OutputTokens,
		"cache_read_input_tokens": u.CacheReadTokens, "cache_creation_input_tokens": u.CacheWriteTokens,
		"model": c.s.State().Model, "cost_usd": u.CostUSD,
	}}}
	c.mu.Lock()
	p, mine := c.pending[ev.Tag]
	delete(c.pending, ev.Tag)
	c.mu.Unlock()
	if !mine {
		return out
	}
	id := p.id
	resp := map[string]any{"type": "response", "id": id, "command": p.command, "ok": true}
	switch {
	case errors.Is(ev.Err, context.Canceled):
		resp["cancelled"] = true
	case ev.Err != nil:
		out = append([]map[string]any{{"type": "error", "id": id, "message": ev.Err.Error()}}, out...)
		resp["ok"], resp["error"] = false, ev.Err.Error()
	}
	return append(out, resp)
}

// fail sends an error event; id is nil for a frame that could not be read.
func (c *client) fail(ctx context.Context, id *string, msg string) {
	f := map[string]any{"type": "error", "message": msg}
	if id != nil {
		f["id"] = *id
	} else {
		f["id"] = nil
	}
	c.send(ctx, f)
}

func (c *client) send(ctx context.Context, frame map[string]any) error {
	b, err := json.Marshal(frame)
	if err != nil {
		b, _ = json.Marshal(map[string]any{"type": "error", "id": nil, "message": "internal: an event could not be encoded: " + err.Error()})
	}
	return c.conn.WriteFrame(ctx, b)
}

// provider is the provider part of a model name: anthropic/…, openai/…,
// <plugin>:<provider>:…, script:….
func provider(name string) string {
	if p, _, ok := strings.Cut(name, "/"); ok && !strings.Contains(p, ":") {
		return p
	}
	if i := strings.LastIndex(name, ":"); i > 0 {
		return name[:i]
	}
	return ""
}

func rawOrEmpty(b []byte) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("{}")
	}
	return json.RawMessage(b)
}

// commandError says what is wrong with a frame that is not a command, in
// the protocol's words (a field and the JSON type it needs), not Go's.
func commandError(err error) string {
	const example = `send one object per frame, e.g. {"type":"prompt","id":"1","message":"hi"}`
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Sprintf("not a command: got a JSON %s; %s", te.Value, example)
		}
		want := map[string]string{"string": "a string", "[]host.Attachment": "an array of attachments"}[te.Type.String()]
		if want == "" {
			want = "an object"
		}
		return fmt.Sprintf("field %q must be %s, got a JSON %s; %s", te.Field, want, te.Value, example)
	}
	return fmt.Sprintf("not a JSON command: %v; %s", err, example)
}
