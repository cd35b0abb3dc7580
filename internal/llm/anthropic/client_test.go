package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/internal/llmtest"
)

func TestTextTurn(t *testing.T) {
	api := llmtest.NewServer(t, llmtest.Reply{Body: llmtest.Fixture(t, "text.sse")})
	var sleeps []time.Duration
	c := testClient(api, Config{}, &sleeps)
	var rec llmtest.Recorder
	resp, err := c.Complete(context.Background(), &llm.Request{
		Model:    "claude-sonnet-4-5",
		System:   "Be brief.",
		Messages: []llm.Message{llmtest.UserText("Hi")},
	}, rec.On)
	if err != nil {
		t.Fatal(err)
	}
	want := &llm.Response{
		Message:    llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockText, Text: "Hello, wörld!\n"}}},
		StopReason: "end_turn",
		Usage:      llm.Usage{InputTokens: 25, OutputTokens: 15},
		Model:      "claude-sonnet-4-5-20250929",
	}
	if diff := cmp.Diff(want, resp); diff != "" {
		t.Errorf("response mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"text Hello", "text , wörld", "text !\n"}, rec.Events); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}

	reqs := api.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Path != "/v1/messages" {
		t.Errorf("path = %q, want /v1/messages", r.Path)
	}
	for k, v := range map[string]string{"X-Api-Key": "test-key", "Anthropic-Version": "2023-06-01", "Content-Type": "application/json"} {
		if got := r.Header.Get(k); got != v {
			t.Errorf("header %s = %q, want %q", k, got, v)
		}
	}
	if diff := llmtest.JSONDiff(t, `{"model":"claude-sonnet-4-5","max_tokens":8192,"stream":true,
		"system":[{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral"}}],
		"messages":[{"role":"user","content":[{"type":"text","text":"Hi","cache_control":{"type":"ephemeral"}}]}]}`, r.Body); diff != "" {
		t.Errorf("request body mismatch (-want +got):\n%s", diff)
	}
	if len(sleeps) != 0 {
		t.Errorf("slept %v, want no retries", sleeps)
	}
}

func TestToolUseTurn(t *testing.T) {
	api := llmtest.NewServer(t, llmtest.Reply{Body: llmtest.Fixture(t, "tool_use.sse")})
	var sleeps []time.Duration
	var rec llmtest.Recorder
	resp, err := testClient(api, Config{}, &sleeps).Complete(context.Background(), &llm.Request{Model: "m", Messages: []llm.Message{llmtest.UserText("list /tmp")}}, rec.On)
	if err != nil {
		t.Fatal(err)
	}
	// The input arrived in 14 fragments, cut inside a string, inside a
	// \u escape and between a backslash and the quote it escapes.
	const input = `{"command": "echo h\u00e9llo \"w\" && ls /tmp", "timeout": 30, "env": {}}`
	wantContent := []llm.Block{
		{Type: llm.BlockText, Text: "Let me run that."},
		{Type: llm.BlockToolUse, ID: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", Name: "bash", Input: json.RawMessage(input)},
		{Type: llm.BlockToolUse, ID: "toolu_02", Name: "ls", Input: json.RawMessage(`{}`)},
	}
	if diff := cmp.Diff(wantContent, resp.Message.Content); diff != "" {
		t.Errorf("content mismatch (-want +got):\n%s", diff)
	}
	var decoded struct{ Command string }
	if err := json.Unmarshal(resp.Message.Content[1].Input, &decoded); err != nil || decoded.Command != `echo héllo "w" && ls /tmp` {
		t.Errorf("decoded command = %q, %v", decoded.Command, err)
	}
	wantEvents := []string{
		"text Let me run that.",
		"tool_use toolu_01T1x1fJ34qAmk2tNTrN7Up6 bash " + input,
		"tool_use toolu_02 ls {}",
	}
	if diff := cmp.Diff(wantEvents, rec.Events); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}
	if resp.StopReason != "tool_use" || resp.Usage != (llm.Usage{InputTokens: 472, OutputTokens: 89}) {
		t.Errorf("stop reason %q, usage %+v", resp.StopReason, resp.Usage)
	}
}

func TestThinkingIsSentBack(t *testing.T) {
	api := llmtest.NewServer(t, llmtest.Reply{Body: llmtest.Fixture(t, "thinking.sse")}, llmtest.Reply{Body: llmtest.Fixture(t, "text.sse")})
	var sleeps []time.Duration
	c := testClient(api, Config{}, &sleeps)
	var rec llmtest.Recorder
	req := &llm.Request{Model: "m", MaxTokens: 20000, ThinkingBudget: 10000, Messages: []llm.Message{llmtest.UserText("27 * 453?")}}
	resp, err := c.Complete(context.Background(), req, rec.On)
	if err != nil {
		t.Fatal(err)
	}
	const sig = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"
	const redacted = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"
	wantContent := []llm.Block{
		{Type: llm.BlockThinking, Thinking: "Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3", Signature: sig},
		{Type: llm.BlockRedactedThinking, Data: redacted},
		{Type: llm.BlockText, Text: "27 * 453 = 12,231"},
	}
	if diff := cmp.Diff(wantContent, resp.Message.Content); diff != "" {
		t.Errorf("content mismatch (-want +got):\n%s", diff)
	}
	wantEvents := []string{
		"thinking Let me solve this step by step:\n\n1. First break down 27 * 453",
		"thinking \n2. 453 = 400 + 50 + 3",
		"text 27 * 453 = 12,231",
	}
	if diff := cmp.Diff(wantEvents, rec.Events); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}

	// The next turn carries the thinking back, signature and all, and the
	// persisted form of the message survives a JSON round trip on the way.
	persisted, _ := json.Marshal(resp.Message)
	var back llm.Message
	if err := json.Unmarshal(persisted, &back); err != nil {
		t.Fatal(err)
	}
	req.Messages = append(req.Messages, back, llmtest.UserText("thanks"))
	if _, err := c.Complete(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	reqs := api.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	want := `{"model":"m","max_tokens":20000,"stream":true,"thinking":{"type":"enabled","budget_tokens":10000},"messages":[
		{"role":"user","content":[{"type":"text","text":"27 * 453?"}]},
		{"role":"assistant","content":[
			{"type":"thinking","thinking":"Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3","signature":"` + sig + `"},
			{"type":"redacted_thinking","data":"` + redacted + `"},
			{"type":"text","text":"27 * 453 = 12,231"}]},
		{"role":"user","content":[{"type":"text","text":"thanks","cache_control":{"type":"ephemeral"}}]}]}`
	if diff := llmtest.JSONDiff(t, want, reqs[1].Body); diff != "" {
		t.Errorf("second request body mismatch (-want +got):\n%s", diff)
	}
}

func TestRetryAfter429(t *testing.T) {
	api := llmtest.NewServer(t,
		llmtest.Reply{Status: 429, Header: map[string]string{"Retry-After": "3"}, Body: `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`},
		llmtest.Reply{Body: llmtest.Fixture(t, "text.sse")})
	var sleeps []time.Duration
	var rec llmtest.Recorder
	resp, err := testClient(api, Config{}, &sleeps).Complete(context.Background(), &llm.Request{Model: "m", Messages: []llm.Message{llmtest.UserText("hi")}}, rec.On)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() != "Hello, wörld!\n" {
		t.Errorf("text = %q", resp.Message.Text())
	}
	if n := len(api.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	if diff := cmp.Diff([]time.Duration{3 * time.Second}, sleeps); diff != "" {
		t.Errorf("sleeps mismatch (-want +got):\n%s", diff)
	}
	want := []string{
		"retry after 3s: anthropic API error 429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit (rate limited and out of retries; wait a little, or check your plan's limits)",
		"text Hello", "text , wörld", "text !\n",
	}
	if diff := cmp.Diff(want, rec.Events); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}
}

func TestErrorsNotRetried(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		header     map[string]string
		body       string
		wantStatus int
		wantType   string
		wantIn     string // a substring of Error()
	}{
		{
			name: "401 names the key", status: 401,
			body:       `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`,
			wantStatus: 401, wantType: "authentication_error", wantIn: "check ANTHROPIC_API_KEY",
		},
		{
			name: "400", status: 400,
			body:       `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: Field required"}}`,
			wantStatus: 400, wantType: "invalid_request_error", wantIn: "max_tokens: Field required",
		},
		{
			name: "404 names the base URL", status: 404,
			body:       `{"type":"error","error":{"type":"not_found_error","message":"model: claude-nope"}}`,
			wantStatus: 404, wantType: "not_found_error", wantIn: "check the model name and ANTHROPIC_BASE_URL",
		},
		{
			name: "html from a proxy", status: 403, body: "<html><body>Forbidden</body></html>",
			wantStatus: 403, wantIn: "<html><body>Forbidden</body></html> (the key in ANTHROPIC_API_KEY",
		},
		{
			name: "529 asking for too long a wait", status: 529, header: map[string]string{"Retry-After": "600"},
			body:       `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			wantStatus: 529, wantType: "overloaded_error", wantIn: "the service asks to wait 10m0s",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := llmtest.NewServer(t, llmtest.Reply{Status: tt.status, Header: tt.header, Body: tt.body})
			var sleeps []time.Duration
			var rec llmtest.Recorder
			_, err := testClient(api, Config{}, &sleeps).Complete(context.Background(), &llm.Request{Model: "m"}, rec.On)
			apiErr, ok := errors.AsType[*llm.APIError](err)
			if !ok {
				t.Fatalf("err = %v (%T), want *llm.APIError", err, err)
			}
			if apiErr.Provider != "anthropic" || apiErr.Status != tt.wantStatus || apiErr.Type != tt.wantType {
				t.Errorf("APIError = %+v, want status %d type %q", apiErr, tt.wantStatus, tt.wantType)
			}
			if !strings.Contains(err.Error(), tt.wantIn) {
				t.Errorf("error %q does not contain %q", err, tt.wantIn)
			}
			if n := len(api.Requests()); n != 1 || len(sleeps) != 0 || len(rec.Events) != 0 {
				t.Errorf("%d requests, sleeps %v, events %q: want one request and no retry", n, sleeps, rec.Events)
			}
		})
	}
}

func TestRetriesExhausted(t *testing.T) {
	overloaded := llmtest.Reply{Status: 529, Body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}
	api := llmtest.NewServer(t, overloaded, overloaded, overloaded)
	var sleeps []time.Duration
	var rec llmtest.Recorder
	_, err := testClient(api, Config{MaxRetries: 2, RetryBase: 100 * time.Millisecond}, &sleeps).Complete(context.Background(), &llm.Request{Model: "m"}, rec.On)
	if apiErr, ok := errors.AsType[*llm.APIError](err); !ok || apiErr.Status != 529 {
		t.Fatalf("err = %v, want a 529 APIError", err)
	}
	if n := len(api.Requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	if diff := cmp.Diff([]time.Duration{100 * time.Millisecond, 200 * time.Millisecond}, sleeps); diff != "" {
		t.Errorf("backoff mismatch (-want +got):\n%s", diff)
	}
	if len(rec.Events) != 2 || !strings.HasPrefix(rec.Events[0], "retry after 100ms: anthropic API error 529 overloaded_error: Overloaded") {
		t.Errorf("events = %q", rec.Events)
	}
}

func TestStreamFailures(t *testing.T) {
	text := llmtest.Fixture(t, "text.sse")
	truncatedEarly := text[:strings.Index(text, "event: content_block_start")]
	truncatedLate := text[:strings.Index(text, "event: content_block_stop")]
	badTool := strings.Join([]string{
		text[:strings.Index(text, "event: content_block_start")],
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_9\",\"name\":\"edit\",\"input\":{}}}\n\n",
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"path\\\": \"}}\n\n",
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
	}, "")
	tests := []struct {
		name     string
		replies  []llmtest.Reply
		wantErr  string // empty: success
		wantReqs int
		events   []string
	}{
		{
			name:     "overloaded before any content is retried",
			replies:  []llmtest.Reply{{Body: llmtest.Fixture(t, "overloaded_early.sse")}, {Body: text}},
			wantReqs: 2,
			events:   []string{"retry after 1ms: anthropic API error 529 overloaded_error: Overloaded (the service is having trouble; try again shortly)", "text Hello", "text , wörld", "text !\n"},
		},
		{
			name:     "overloaded after content is returned",
			replies:  []llmtest.Reply{{Body: llmtest.Fixture(t, "overloaded_late.sse")}},
			wantErr:  "anthropic API error 529 overloaded_error: Overloaded",
			wantReqs: 1,
			events:   []string{"text Partial"},
		},
		{
			name:     "truncated before content is retried",
			replies:  []llmtest.Reply{{Body: truncatedEarly}, {Body: text}},
			wantReqs: 2,
			events:   []string{"retry after 1ms: anthropic: reading the response stream: the stream ended before message_stop", "text Hello", "text , wörld", "text !\n"},
		},
		{
			name:     "truncated after content is returned",
			replies:  []llmtest.Reply{{Body: truncatedLate}},
			wantErr:  "anthropic: reading the response stream: the stream ended before message_stop",
			wantReqs: 1,
			events:   []string{"text Hello", "text , wörld", "text !\n"},
		},
		{
			name:     "invalid tool input names the tool",
			replies:  []llmtest.Reply{{Body: badTool}},
			wantErr:  `anthropic: the model's call of tool "edit" (id toolu_9) has input that is not valid JSON: {"path":`,
			wantReqs: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := llmtest.NewServer(t, tt.replies...)
			var sleeps []time.Duration
			var rec llmtest.Recorder
			_, err := testClient(api, Config{RetryBase: time.Millisecond}, &sleeps).Complete(context.Background(), &llm.Request{Model: "m"}, rec.On)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("err = %v, want success", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
			}
			if n := len(api.Requests()); n != tt.wantReqs {
				t.Errorf("%d requests, want %d", n, tt.wantReqs)
			}
			if diff := cmp.Diff(tt.events, rec.Events); diff != "" {
				t.Errorf("events mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCancelMidStream(t *testing.T) {
	text := llmtest.Fixture(t, "text.sse")
	api := llmtest.NewServer(t, llmtest.Reply{Body: text[:strings.Index(text, "event: content_block_stop")], Hold: true})
	var sleeps []time.Duration
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var rec llmtest.Recorder
	_, err := testClient(api, Config{}, &sleeps).Complete(ctx, &llm.Request{Model: "m"}, func(ev llm.Event) {
		rec.On(ev)
		cancel() // the server keeps the stream open: only cancellation ends the read
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(rec.Events) == 0 || len(api.Requests()) != 1 || len(sleeps) != 0 {
		t.Errorf("events %q, %d requests, sleeps %v", rec.Events, len(api.Requests()), sleeps)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	api := llmtest.NewServer(t, llmtest.Reply{Status: 503, Body: `{"type":"error","error":{"type":"api_error","message":"unavailable"}}`})
	c := New(Config{BaseURL: api.URL, HTTPClient: api.Client(), RetryBase: time.Hour}) // a real timer
	ctx, cancel := context.WithCancel(context.Background())
	var retries int
	_, err := c.Complete(ctx, &llm.Request{Model: "m"}, func(ev llm.Event) {
		if ev.Type == llm.EventRetry {
			retries++
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || retries != 1 {
		t.Fatalf("err = %v after %d retry events, want context.Canceled after 1", err, retries)
	}
}

func TestUnreachable(t *testing.T) {
	srv := httptest.NewServer(nil)
	url := srv.URL
	srv.Close()
	c := New(Config{BaseURL: url, MaxRetries: 1, RetryBase: time.Millisecond})
	var rec llmtest.Recorder
	_, err := c.Complete(context.Background(), &llm.Request{Model: "m"}, rec.On)
	if err == nil || !strings.Contains(err.Error(), "cannot reach "+url+"/v1/messages (check ANTHROPIC_BASE_URL and your network)") {
		t.Fatalf("err = %v", err)
	}
	if len(rec.Events) != 1 || !strings.Contains(rec.Events[0], ": anthropic: cannot reach") {
		t.Errorf("events = %q, want one retry", rec.Events)
	}
}
