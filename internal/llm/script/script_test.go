package script

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/llm"
)

// recorder collects events as readable strings.
type recorder struct{ events []string }

func (r *recorder) on(ev llm.Event) {
	switch ev.Type {
	case llm.EventToolUse:
		r.events = append(r.events, fmt.Sprintf("tool_use %s %s %s", ev.ToolUse.ID, ev.ToolUse.Name, ev.ToolUse.Input))
	default:
		r.events = append(r.events, fmt.Sprintf("%s %q", ev.Type, ev.Text))
	}
}

func user(text string) llm.Message {
	return llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: text}}}
}

func TestPlayDemo(t *testing.T) {
	p, err := Load(filepath.Join("testdata", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Len() != 2 || p.Remaining() != 2 {
		t.Fatalf("Len %d, Remaining %d; want 2, 2", p.Len(), p.Remaining())
	}
	req := &llm.Request{System: "You are synaps.", Messages: []llm.Message{user("what is here?")}}

	var rec recorder
	resp, err := p.Complete(context.Background(), req, rec.on)
	if err != nil {
		t.Fatal(err)
	}
	wantEvents := []string{
		`text "Let"`, `text " me"`, `text " look"`, `text " around."`,
		`tool_use toolu_script_1_1 bash {"command":"ls -1"}`,
		`tool_use call_readme read {"path":"README.md"}`,
	}
	if diff := cmp.Diff(wantEvents, rec.events); diff != "" {
		t.Errorf("turn 1 events mismatch (-want +got):\n%s", diff)
	}
	want := &llm.Response{
		Message: llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{
			{Type: llm.BlockText, Text: "Let me look around."},
			{Type: llm.BlockToolUse, ID: "toolu_script_1_1", Name: "bash", Input: json.RawMessage(`{"command":"ls -1"}`)},
			{Type: llm.BlockToolUse, ID: "call_readme", Name: "read", Input: json.RawMessage(`{"path":"README.md"}`)},
		}},
		StopReason: "tool_use",
		Usage:      llm.Usage{InputTokens: 7, OutputTokens: 17},
		Model:      "script:testdata/demo.jsonl",
	}
	if diff := cmp.Diff(want, resp); diff != "" {
		t.Errorf("turn 1 response mismatch (-want +got):\n%s", diff)
	}

	req.Messages = append(req.Messages, resp.Message, llm.Message{Role: llm.RoleUser, Content: []llm.Block{
		{Type: llm.BlockToolResult, ToolUseID: "toolu_script_1_1", Content: "README.md\ngo.mod"},
		{Type: llm.BlockToolResult, ToolUseID: "call_readme", Content: "# Demo\nA demo."},
	}})
	rec = recorder{}
	resp, err = p.Complete(context.Background(), req, rec.on)
	if err != nil {
		t.Fatal(err)
	}
	wantEvents = []string{`thinking "Two"`, `thinking " files."`, `text "There"`, `text " is"`, `text " a"`, `text " README"`, `text " and"`, `text " a"`, `text " go.mod."`, `text "\nDone."`}
	if diff := cmp.Diff(wantEvents, rec.events); diff != "" {
		t.Errorf("turn 2 events mismatch (-want +got):\n%s", diff)
	}
	if resp.StopReason != "end_turn" || resp.Message.Text() != "There is a README and a go.mod.\nDone." {
		t.Errorf("turn 2: stop %q, text %q", resp.StopReason, resp.Message.Text())
	}

	_, err = p.Complete(context.Background(), req, nil)
	const wantErr = `script testdata/demo.jsonl: its 2 turns have been played and the model was asked for turn 3; add a line to the script (the request's last user message: "what is here?")`
	if err == nil || err.Error() != wantErr {
		t.Errorf("exhausted:\n got %v\nwant %s", err, wantErr)
	}
	if p.Remaining() != 0 {
		t.Errorf("Remaining = %d", p.Remaining())
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "# nothing\n\n", `x.jsonl: the script has no turns; write one JSON object per line, such as {"text": "Hello!"}`},
		{"not json", "{\"text\": \"ok\"}\n\nhello\n", `x.jsonl:3: not a turn: invalid character 'h' looking for beginning of value (each line is one JSON object such as {"text": "Hello!"})`},
		{"unknown field", `{"txt": "hi"}`, `x.jsonl:1: not a turn: unknown field "txt"`},
		{"unknown block field", `{"content": [{"type": "text", "txt": "hi"}]}`, `x.jsonl:1: not a turn: unknown field "txt"`},
		{"two values", `{"text": "a"} {"text": "b"}`, `x.jsonl:1: more than one JSON value on the line; put each turn on a line of its own`},
		{"both forms", `{"text": "a", "content": []}`, `x.jsonl:1: a turn has either "text" and "tool_calls", or "content", not both`},
		{"neither form", `{"stop_reason": "end_turn"}`, `x.jsonl:1: a turn needs "text", "tool_calls" or "content"`},
		{"tool call without name", `{"tool_calls": [{"input": {}}]}`, `x.jsonl:1: tool_calls[0] has no "name"`},
		{"input not an object", "\n" + `{"tool_calls": [{"name": "bash", "input": "ls"}]}`, `x.jsonl:2: tool_calls[0] (bash): "input" must be a JSON object, such as {"command": "ls"}, not "ls"`},
		{"tool_result in a turn", `{"content": [{"type": "tool_result", "tool_use_id": "x"}]}`, `x.jsonl:1: content[0]: tool_result blocks come from tools, in user messages; an assistant turn cannot contain one`},
		{"unknown block type", `{"content": [{"type": "image"}]}`, `x.jsonl:1: content[0]: unknown block type "image"; use "text", "tool_use" or "thinking"`},
		{"block without type", `{"content": [{"text": "hi"}]}`, `x.jsonl:1: content[0]: the block has no "type"; use "text", "tool_use" or "thinking"`},
		{"tool_use without name", `{"content": [{"type": "tool_use"}]}`, `x.jsonl:1: content[0]: a tool_use block needs a "name"`},
		{"negative delay", `{"text": "a", "delay_ms": -5}`, `x.jsonl:1: "delay_ms" is -5; use 0 or more milliseconds`},
		{"unknown expectation", `{"text": "a", "expect": {"last_tool_result": "x"}}`, `x.jsonl:1: not a turn: unknown field "last_tool_result"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.jsonl", []byte(tt.in))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err =\n  %v\nwant prefix\n  %s", err, tt.want)
			}
		})
	}
}

func TestParseForms(t *testing.T) {
	in := "\xEF\xBB\xBF" + `{"text": ""}` + "\r\n" +
		`{"tool_calls": [{"name": "a"}, {"name": "b", "input": { "x" : [1, 2] }}], "stop_reason": "max_tokens"}` + "\r\n" +
		`{"content": [{"type": "text", "text": "hi"}, {"type": "tool_use", "name": "c"}, {"type": "thinking", "thinking": "t", "signature": "s"}]}`
	p, err := Parse("f", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []turn{
		{line: 1, stop: "end_turn"},
		{line: 2, stop: "max_tokens", content: []llm.Block{
			{Type: llm.BlockToolUse, ID: "toolu_script_2_1", Name: "a", Input: json.RawMessage(`{}`)},
			{Type: llm.BlockToolUse, ID: "toolu_script_2_2", Name: "b", Input: json.RawMessage(`{"x":[1,2]}`)},
		}},
		{line: 3, stop: "tool_use", content: []llm.Block{
			{Type: llm.BlockText, Text: "hi"},
			{Type: llm.BlockToolUse, ID: "toolu_script_3_1", Name: "c", Input: json.RawMessage(`{}`)},
			{Type: llm.BlockThinking, Thinking: "t", Signature: "s"},
		}},
	}
	if diff := cmp.Diff(want, p.turns, cmp.AllowUnexported(turn{}, expectation{})); diff != "" {
		t.Errorf("turns mismatch (-want +got):\n%s", diff)
	}
}

func TestExpectations(t *testing.T) {
	toolResults := llm.Message{Role: llm.RoleUser, Content: []llm.Block{
		{Type: llm.BlockToolResult, ToolUseID: "1", Content: "first"},
		{Type: llm.BlockToolResult, ToolUseID: "2", Content: "exit status 1: permission denied"},
	}}
	req := &llm.Request{
		System: "You are synaps. Extension guard is active.",
		Messages: []llm.Message{
			user("delete the logs"),
			{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockToolUse, ID: "1", Name: "bash"}}},
			toolResults,
		},
	}
	tests := []struct {
		name   string
		expect string
		req    *llm.Request
		want   string // empty: the turn plays
	}{
		{"all met", `{"last_tool_result_contains": "permission denied", "last_user_contains": "delete", "system_contains": "guard is active"}`, req, ""},
		{"tool result", `{"last_tool_result_contains": "deleted"}`, req,
			`script s.jsonl:2: expected the last tool result to contain "deleted", but it is "exit status 1: permission denied"`},
		{"no tool result", `{"last_tool_result_contains": "x"}`, &llm.Request{Messages: []llm.Message{user("hi")}},
			`script s.jsonl:2: expected the last tool result to contain "x", but the request has no tool result`},
		{"user text skips tool-result messages", `{"last_user_contains": "logs"}`, req, ""},
		{"user text", `{"last_user_contains": "keep"}`, req,
			`script s.jsonl:2: expected the last user message to contain "keep", but it is "delete the logs"`},
		{"every failure is listed", `{"system_contains": "guard is off", "last_user_contains": "keep"}`, req,
			`script s.jsonl:2: expected the last user message to contain "keep", but it is "delete the logs"; expected the system prompt to contain "guard is off", but it is "You are synaps. Extension guard is active."`},
		{"tools offered", `{"tools_include": ["bash", "read"], "tools_exclude": ["write"]}`, withTools("bash", "read"), ""},
		{"tools missing and extra", `{"tools_include": ["bash", "wave"], "tools_exclude": ["read"]}`, withTools("bash", "read"),
			`script s.jsonl:2: expected the request to offer the tool "wave", but its tools are "bash, read"; expected the request not to offer the tool "read", but it does`},
		{"long values are cut", `{"system_contains": "zzz"}`, &llm.Request{System: strings.Repeat("é", 200)},
			`script s.jsonl:2: expected the system prompt to contain "zzz", but it is "` + strings.Repeat("é", 150) + `"…`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("s.jsonl", []byte("# header\n"+`{"text": "ok", "expect": `+tt.expect+`}`))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := p.Complete(context.Background(), tt.req, nil)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("err = %v, want the turn played", err)
			case tt.want == "" && resp.Message.Text() != "ok":
				t.Errorf("text = %q", resp.Message.Text())
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("err =\n  %v\nwant\n  %s", err, tt.want)
			}
			if p.Remaining() != 0 {
				t.Errorf("the turn was not consumed")
			}
		})
	}
}

// withTools is a request offering tools of these names.
func withTools(names ...string) *llm.Request {
	req := &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: "hi"}}}}}
	for _, n := range names {
		req.Tools = append(req.Tools, llm.ToolDef{Name: n})
	}
	return req
}

func TestLoadMissing(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.jsonl"))
	if err == nil || !strings.Contains(err.Error(), "nope.jsonl (script:FILE names a JSONL file of assistant turns): no such file or directory") {
		t.Errorf("err = %v", err)
	}
}

func TestConcurrentTurns(t *testing.T) {
	const n = 16
	var lines []string
	for i := range n {
		lines = append(lines, fmt.Sprintf(`{"text": "turn %d"}`, i))
	}
	p, err := Parse("c", []byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range n + 2 {
		wg.Go(func() {
			resp, err := p.Complete(context.Background(), &llm.Request{}, func(llm.Event) {})
			if err != nil {
				return // two calls find the script exhausted
			}
			mu.Lock()
			seen[resp.Message.Text()] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(seen) != n || p.Remaining() != 0 {
		t.Errorf("%d distinct turns played, %d remaining; want %d and 0", len(seen), p.Remaining(), n)
	}
}

func TestCancel(t *testing.T) {
	p, err := Parse("c", []byte(`{"text": "one two three", "tool_calls": [{"name": "x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var rec recorder
	_, err = p.Complete(ctx, &llm.Request{}, func(ev llm.Event) {
		rec.on(ev)
		cancel()
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if diff := cmp.Diff([]string{`text "one"`}, rec.events); diff != "" {
		t.Errorf("events after cancel (-want +got):\n%s", diff)
	}
}

// TestDelayPausesBetweenWords: with "delay_ms" a turn streams a word and
// then waits; cancelling during the wait ends the turn there, so a UI
// test can interrupt a slow answer half-way.
func TestDelayPausesBetweenWords(t *testing.T) {
	p, err := Parse("d", []byte(`{"text": "one two three", "tool_calls": [{"name": "x"}], "delay_ms": 3600000}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	events := make(chan llm.Event, 10)
	done := make(chan error, 1)
	go func() {
		_, err := p.Complete(ctx, &llm.Request{}, func(ev llm.Event) { events <- ev })
		done <- err
	}()
	first := <-events
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	close(events)
	var rec recorder
	rec.on(first)
	for ev := range events {
		rec.on(ev)
	}
	if diff := cmp.Diff([]string{`text "one"`}, rec.events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
