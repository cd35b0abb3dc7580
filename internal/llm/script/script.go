// Package script is a deterministic replay model: each call to Complete
// plays the next assistant turn from a JSONL file. It drives `synaps demo`
// and lets extension authors test their extensions in CI without a model,
// by checking, turn by turn, that the request carries what it should.
//
// # File format
//
// One assistant turn per line, a JSON object. Blank lines and lines
// starting with # or // are ignored. A turn is either the short form
//
//	{"text": "Let me look.", "tool_calls": [{"name": "bash", "input": {"command": "ls"}, "id": "optional"}]}
//
// or the content form, a list of llm.Block objects as sessions store them:
//
//	{"content": [{"type": "thinking", "thinking": "..."}, {"type": "text", "text": "Done."}]}
//
// Either form may add "stop_reason" (default "tool_use" when the turn calls
// tools, else "end_turn") and "expect", checked against the request before
// the turn is played:
//
//	"expect": {"last_tool_result_contains": "...", "last_user_contains": "...", "system_contains": "..."}
//
// and "delay_ms", a pause after each streamed word and before each tool call,
// which scripts a slow turn (a UI test interrupting a turn mid-answer).
// The pause ends early when the request's context ends.
//
// "last tool result" is the last tool_result block anywhere in the request;
// "last user" is the text of the latest user message that has any text
// (messages holding only tool results are skipped, so it is what the user
// typed, or an extension injected). Tool call ids default to
// "toolu_script_<turn>_<n>", both counted from 1.
//
// # Behaviour
//
// Text is streamed a word at a time (each EventText is a word with the
// whitespace before it), thinking likewise, then one EventToolUse per tool
// call, in the turn's block order. Usage is a rough estimate (a token per
// four bytes) so that UIs have numbers to show. A failed expectation
// consumes its turn, like a played one, and returns an error naming the
// file, the line, and what was expected against what the request had. Once
// every turn is played, Complete returns an error that says so. A Provider
// is safe for concurrent use; concurrent calls play successive turns.
// GoOnAfter starts it further on, for a resumed session.
package script

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/plural"
)

// Provider plays a script. Create it with Load or Parse.
type Provider struct {
	name  string // the file name used in errors and Response.Model
	turns []turn

	mu   sync.Mutex // guards next
	next int        // index of the next turn to play
}

var _ llm.Provider = (*Provider)(nil)

// turn is one parsed line.
type turn struct {
	line    int // 1-based line number in the file
	content []llm.Block
	stop    string
	expect  expectation
	delay   time.Duration // before each word and tool call
}

// Load reads and parses the script at path.
func Load(path string) (*Provider, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			err = pe.Err // the message names path already
		}
		return nil, fmt.Errorf("script: cannot read %s (script:FILE names a JSONL file of assistant turns): %w", path, err)
	}
	return Parse(path, data)
}

// Parse parses a script; name is used in error messages and as the model
// name ("script:" + name).
func Parse(name string, data []byte) (*Provider, error) {
	p := &Provider{name: name}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' || bytes.HasPrefix(line, []byte("//")) {
			continue
		}
		t, err := parseTurn(line, len(p.turns)+1)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n+1, err)
		}
		t.line = n + 1
		p.turns = append(p.turns, t)
	}
	if len(p.turns) == 0 {
		return nil, fmt.Errorf(`%s: the script has no turns; write one JSON object per line, such as {"text": "Hello!"}`, name)
	}
	return p, nil
}

// Len is the number of turns in the script.
func (p *Provider) Len() int { return len(p.turns) }

// Remaining is the number of turns not yet played; a CI check can require
// it to be 0 at the end of a run.
func (p *Provider) Remaining() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.turns) - p.next
}

// GoOnAfter makes the next turn played the one after the first n: a
// resumed session goes on where its run left the script, instead of
// replaying it from the first line. n beyond the script means every turn
// has been played.
func (p *Provider) GoOnAfter(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next = min(max(n, 0), len(p.turns))
}

// Complete plays the next turn.
func (p *Provider) Complete(ctx context.Context, req *llm.Request, onEvent func(llm.Event)) (*llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	i := p.next
	if i < len(p.turns) {
		p.next++
	}
	p.mu.Unlock()
	if i >= len(p.turns) {
		return nil, fmt.Errorf("script %s: its %s %s been played and the model was asked for turn %d; add a line to the script (the request's last user message: %s)",
			p.name, plural.Count(len(p.turns), "turn"), plural.Pick(len(p.turns), "has", "have"), i+1, quote(lastUserText(req)))
	}
	t := &p.turns[i]
	if err := t.expect.check(req); err != nil {
		return nil, fmt.Errorf("script %s:%d: %w", p.name, t.line, err)
	}
	if onEvent == nil {
		onEvent = func(llm.Event) {}
	}
	out := 0
	for j := range t.content {
		b := &t.content[j]
		var err error
		switch b.Type {
		case llm.BlockText:
			err = streamWords(ctx, b.Text, llm.EventText, t.delay, onEvent)
		case llm.BlockThinking:
			err = streamWords(ctx, b.Thinking, llm.EventThinking, t.delay, onEvent)
		case llm.BlockToolUse:
			if err = pause(ctx, t.delay); err == nil {
				tu := *b
				onEvent(llm.Event{Type: llm.EventToolUse, ToolUse: &tu})
			}
		}
		if err != nil {
			return nil, err
		}
		out += blockSize(b)
	}
	return &llm.Response{
		Message:    llm.Message{Role: llm.RoleAssistant, Content: append([]llm.Block(nil), t.content...)},
		StopReason: t.stop,
		Usage:      llm.Usage{InputTokens: tokens(requestSize(req)), OutputTokens: tokens(out)},
		Model:      "script:" + p.name,
	}, nil
}

// streamWords delivers s a word at a time, each word with the whitespace
// before it, so that the pieces join back into s exactly, pausing delay
// after each.
func streamWords(ctx context.Context, s string, typ llm.EventType, delay time.Duration, onEvent func(llm.Event)) error {
	for s != "" {
		if err := ctx.Err(); err != nil {
			return err
		}
		i := 0
		for i < len(s) { // leading whitespace
			r, n := utf8.DecodeRuneInString(s[i:])
			if !unicode.IsSpace(r) {
				break
			}
			i += n
		}
		for i < len(s) { // the word
			r, n := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				break
			}
			i += n
		}
		onEvent(llm.Event{Type: typ, Text: s[:i]})
		s = s[i:]
		if err := pause(ctx, delay); err != nil {
			return err
		}
	}
	return nil
}

// pause waits d, or until ctx ends; it returns ctx's error if it ended.
func pause(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// tokens is the rough token count of n bytes.
func tokens(n int) int { return (n + 3) / 4 }

func blockSize(b *llm.Block) int {
	return len(b.Text) + len(b.Name) + len(b.Input) + len(b.Content) + len(b.Thinking)
}

func requestSize(req *llm.Request) int {
	n := len(req.System)
	for _, m := range req.Messages {
		for i := range m.Content {
			n += blockSize(&m.Content[i])
		}
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.InputSchema)
	}
	return n
}

// quote shows s in an error message: quoted, and cut to a readable length.
func quote(s string) string {
	const max = 300
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}

// wireTurn is a line of the file.
type wireTurn struct {
	Text       *string        `json:"text"`
	ToolCalls  []wireToolCall `json:"tool_calls"`
	Content    []llm.Block    `json:"content"`
	StopReason string         `json:"stop_reason"`
	Expect     *expectation   `json:"expect"`
	DelayMS    int            `json:"delay_ms"`
}

type wireToolCall struct {
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	ID    string          `json:"id"`
}

// parseTurn parses one line; number is the turn's 1-based position, for
// default tool call ids.
func parseTurn(line []byte, number int) (turn, error) {
	var w wireTurn
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return turn{}, fmt.Errorf("not a turn: %v (each line is one JSON object such as {\"text\": \"Hello!\"})", strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		return turn{}, errors.New("more than one JSON value on the line; put each turn on a line of its own")
	}
	short := w.Text != nil || w.ToolCalls != nil
	var t turn
	switch {
	case short && w.Content != nil:
		return turn{}, errors.New(`a turn has either "text" and "tool_calls", or "content", not both`)
	case short:
		if w.Text != nil && *w.Text != "" {
			t.content = append(t.content, llm.Block{Type: llm.BlockText, Text: *w.Text})
		}
		for i, c := range w.ToolCalls {
			if c.Name == "" {
				return turn{}, fmt.Errorf(`tool_calls[%d] has no "name"`, i)
			}
			input, err := objectInput(c.Input)
			if err != nil {
				return turn{}, fmt.Errorf("tool_calls[%d] (%s): %w", i, c.Name, err)
			}
			t.content = append(t.content, llm.Block{Type: llm.BlockToolUse, ID: c.ID, Name: c.Name, Input: input})
		}
	case w.Content != nil:
		for i, b := range w.Content {
			if err := checkBlock(&b); err != nil {
				return turn{}, fmt.Errorf("content[%d]: %w", i, err)
			}
			t.content = append(t.content, b)
		}
	default:
		return turn{}, errors.New(`a turn needs "text", "tool_calls" or "content"`)
	}
	calls := 0
	for i := range t.content {
		if b := &t.content[i]; b.Type == llm.BlockToolUse {
			calls++
			if b.ID == "" {
				b.ID = fmt.Sprintf("toolu_script_%d_%d", number, calls)
			}
		}
	}
	t.stop = w.StopReason
	if t.stop == "" {
		t.stop = llm.StopEndTurn
		if calls > 0 {
			t.stop = llm.StopToolUse
		}
	}
	if w.Expect != nil {
		t.expect = *w.Expect
	}
	if w.DelayMS < 0 {
		return turn{}, fmt.Errorf(`"delay_ms" is %d; use 0 or more milliseconds`, w.DelayMS)
	}
	t.delay = time.Duration(w.DelayMS) * time.Millisecond
	return t, nil
}

// checkBlock validates a content-form block and fills in tool input.
func checkBlock(b *llm.Block) error {
	switch b.Type {
	case llm.BlockText, llm.BlockThinking, llm.BlockRedactedThinking:
		return nil
	case llm.BlockToolUse:
		if b.Name == "" {
			return errors.New(`a tool_use block needs a "name"`)
		}
		input, err := objectInput(b.Input)
		b.Input = input
		return err
	case llm.BlockToolResult:
		return errors.New("tool_result blocks come from tools, in user messages; an assistant turn cannot contain one")
	case "":
		return errors.New(`the block has no "type"; use "text", "tool_use" or "thinking"`)
	}
	return fmt.Errorf("unknown block type %q; use \"text\", \"tool_use\" or \"thinking\"", b.Type)
}

// objectInput checks that a tool input is a JSON object (none means {}) and
// compacts it.
func objectInput(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(`{}`), nil
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf(`"input" must be a JSON object, such as {"command": "ls"}, not %s`, raw)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
