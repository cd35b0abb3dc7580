package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	var rec llmtest.Recorder
	resp, err := testClient(api, Config{}, &sleeps).Complete(context.Background(), &llm.Request{
		Model: "gpt-4.1", System: "Be brief.", MaxTokens: 256, Messages: []llm.Message{llmtest.UserText("Hi")},
	}, rec.On)
	if err != nil {
		t.Fatal(err)
	}
	want := &llm.Response{
		Message:    llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockText, Text: "Hello! How can I help you today?"}}},
		StopReason: "end_turn",
		Usage:      llm.Usage{InputTokens: 19, OutputTokens: 10},
		Model:      "gpt-4.1-2025-04-14",
	}
	if diff := cmp.Diff(want, resp); diff != "" {
		t.Errorf("response mismatch (-want +got):\n%s", diff)
	}
	wantEvents := []string{"text Hello", "text !", "text  How", "text  can I", "text  help", "text  you today?"}
	if diff := cmp.Diff(wantEvents, rec.Events); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}
	reqs := api.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test" || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("path %q, headers %v", r.Path, r.Header)
	}
	// Not api.openai.com, so the limit travels as max_tokens.
	if diff := llmtest.JSONDiff(t, `{"model":"gpt-4.1","max_tokens":256,"stream":true,"stream_options":{"include_usage":true},
		"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]}`, r.Body); diff != "" {
		t.Errorf("request body mismatch (-want +got):\n%s", diff)
	}
}

func TestParallelToolCalls(t *testing.T) {
	api := llmtest.NewServer(t, llmtest.Reply{Body: llmtest.Fixture(t, "tool_calls.sse")})
	var sleeps []time.Duration
	var rec llmtest.Recorder
	resp, err := testClient(api, Config{}, &sleeps).Complete(context.Background(), &llm.Request{Model: "gpt-4.1"}, rec.On)
	if err != nil {
		t.Fatal(err)
	}
	const paris = `{"location": "Paris, France", "unit": "celsius"}`
	const bogota = `{"location": "Bogot\u00e1, Colombia"}`
	wantContent := []llm.Block{
		{Type: llm.BlockToolUse, ID: "call_12345xyz", Name: "get_weather", Input: json.RawMessage(paris)},
		{Type: llm.BlockToolUse, ID: "call_67890abc", Name: "get_weather", Input: json.RawMessage(bogota)},
	}
	if diff := cmp.Diff(wantContent, resp.Message.Content); diff != "" {
		t.Errorf("content mismatch (-want +got):\n%s", diff)
	}
	wantEvents := []string{"tool_use call_12345xyz get_weather " + paris, "tool_use call_67890abc get_weather " + bogota}
	if diff := cmp.Diff(wantEvents, rec.Events); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}
	if resp.StopReason != "tool_use" || resp.Usage != (llm.Usage{InputTokens: 82, OutputTokens: 41}) {
		t.Errorf("stop reason %q, usage %+v", resp.StopReason, resp.Usage)
	}
}

func TestToolResultsRequest(t *testing.T) {
	api := llmtest.NewServer(t, llmtest.Reply{Body: llmtest.Fixture(t, "text.sse")})
	var sleeps []time.Duration
	req := &llm.Request{
		Model: "gpt-4.1",
		Tools: []llm.ToolDef{{Name: "get_weather", Description: "Weather by city", InputSchema: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string"}}}`)}},
		Messages: []llm.Message{
			llmtest.UserText("Weather in Paris and Bogotá?"),
			{Role: llm.RoleAssistant, Content: []llm.Block{
				{Type: llm.BlockThinking, Thinking: "two cities", Signature: "sig"},
				{Type: llm.BlockToolUse, ID: "call_1", Name: "get_weather", Input: json.RawMessage(`{"location":"Paris"}`)},
				{Type: llm.BlockToolUse, ID: "call_2", Name: "get_weather", Input: json.RawMessage(`{"location":"Bogotá"}`)},
			}},
			{Role: llm.RoleUser, Content: []llm.Block{
				{Type: llm.BlockToolResult, ToolUseID: "call_1", Content: "18°C"},
				{Type: llm.BlockToolResult, ToolUseID: "call_2", Content: "service down", IsError: true},
				{Type: llm.BlockText, Text: "Use Celsius."},
			}},
		},
	}
	if _, err := testClient(api, Config{}, &sleeps).Complete(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	want := `{"model":"gpt-4.1","stream":true,"stream_options":{"include_usage":true},
		"tools":[{"type":"function","function":{"name":"get_weather","description":"Weather by city","parameters":{"type":"object","properties":{"location":{"type":"string"}}}}}],
		"messages":[
			{"role":"user","content":"Weather in Paris and Bogotá?"},
			{"role":"assistant","content":null,"tool_calls":[
				{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"location\":\"Paris\"}"}},
				{"id":"call_2","type":"function","function":{"name":"get_weather","arguments":"{\"location\":\"Bogotá\"}"}}]},
			{"role":"tool","tool_call_id":"call_1","content":"18°C"},
			{"role":"tool","tool_call_id":"call_2","content":"Error: service down"},
			{"role":"user","content":"Use Celsius."}]}`
	if diff := llmtest.JSONDiff(t, want, api.Requests()[0].Body); diff != "" {
		t.Errorf("request body mismatch (-want +got):\n%s", diff)
	}
}

func TestEncodeRequest(t *testing.T) {
	temp := 0.0
	tests := []struct {
		name  string
		field string
		req   llm.Request
		want  string
	}{
		{
			name: "openai proper takes max_completion_tokens", field: "max_completion_tokens",
			req:  llm.Request{Model: "o3", MaxTokens: 100, Temperature: &temp},
			want: `{"model":"o3","max_completion_tokens":100,"temperature":0,"stream":true,"stream_options":{"include_usage":true},"messages":[]}`,
		},
		{
			name: "zero max tokens sends neither", field: "max_tokens",
			req:  llm.Request{Model: "llama3", Tools: []llm.ToolDef{{Name: "now"}}},
			want: `{"model":"llama3","stream":true,"stream_options":{"include_usage":true},"messages":[],"tools":[{"type":"function","function":{"name":"now","parameters":{"type":"object"}}}]}`,
		},
		{
			name: "assistant text, tool call without input, thinking-only turn dropped", field: "max_tokens",
			req: llm.Request{Model: "m", Messages: []llm.Message{
				{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockThinking, Thinking: "hmm"}}},
				{Role: llm.RoleAssistant, Content: []llm.Block{
					{Type: llm.BlockText, Text: "Checking."},
					{Type: llm.BlockText, Text: "One moment."},
					{Type: llm.BlockToolUse, ID: "c", Name: "now"},
				}},
			}},
			want: `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[
				{"role":"assistant","content":"Checking.\nOne moment.","tool_calls":[{"id":"c","type":"function","function":{"name":"now","arguments":"{}"}}]}]}`,
		},
		{
			name: "a user message with a picture has content parts, the picture a data URL", field: "max_tokens",
			req: llm.Request{Model: "m", Messages: []llm.Message{
				{Role: llm.RoleUser, Content: []llm.Block{
					{Type: llm.BlockText, Text: "what is this?"},
					{Type: llm.BlockImage, Images: []llm.Image{{MediaType: "image/png", Data: "iVBO"}}},
				}},
			}},
			want: `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[
				{"role":"user","content":[{"type":"text","text":"what is this?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBO"}}]}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, err := body(&tt.req, tt.field)
			if err != nil {
				t.Fatal(err)
			}
			got := bytes.Join(parts, nil)
			if diff := llmtest.JSONDiff(t, tt.want, string(got)); diff != "" {
				t.Errorf("body mismatch (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := body(&llm.Request{}, "max_output"); err == nil || !strings.Contains(err.Error(), `Config.MaxTokensField is "max_output"; use "max_tokens" or "max_completion_tokens"`) {
		t.Errorf("bad field: err = %v", err)
	}
}

func TestMaxTokensFieldDefault(t *testing.T) {
	for base, want := range map[string]string{
		"":                               "max_completion_tokens",
		"https://api.openai.com/v1/":     "max_completion_tokens",
		"http://localhost:11434/v1":      "max_tokens",
		"https://api.groq.com/openai/v1": "max_tokens",
	} {
		if got := New(Config{BaseURL: base}).cfg.MaxTokensField; got != want {
			t.Errorf("BaseURL %q: MaxTokensField = %q, want %q", base, got, want)
		}
	}
}

func TestStreamShapes(t *testing.T) {
	text := `{"model":"m","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":null}]}`
	finish := func(reason string) string {
		return `{"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"` + reason + `"}]}`
	}
	tests := []struct {
		name     string
		body     string
		wantStop string
		content  []llm.Block
		events   []string
	}{
		{"stop", sseData(text, finish("stop"), "[DONE]"), "end_turn", []llm.Block{{Type: llm.BlockText, Text: "ok"}}, []string{"text ok"}},
		{"length", sseData(text, finish("length"), "[DONE]"), "max_tokens", []llm.Block{{Type: llm.BlockText, Text: "ok"}}, []string{"text ok"}},
		{"content_filter", sseData(text, finish("content_filter"), "[DONE]"), "refusal", []llm.Block{{Type: llm.BlockText, Text: "ok"}}, []string{"text ok"}},
		{"unknown reason passes through", sseData(text, finish("eos"), "[DONE]"), "eos", []llm.Block{{Type: llm.BlockText, Text: "ok"}}, []string{"text ok"}},
		{"no [DONE] after a finish_reason", sseData(text, finish("stop")), "end_turn", []llm.Block{{Type: llm.BlockText, Text: "ok"}}, []string{"text ok"}},
		{
			name:     "stop after tool calls means tool_use; missing id and arguments filled in",
			body:     sseData(`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"now"}}]}}]}`, finish("stop"), "[DONE]"),
			wantStop: "tool_use",
			content:  []llm.Block{{Type: llm.BlockToolUse, ID: "call_0", Name: "now", Input: json.RawMessage(`{}`)}},
			events:   []string{"tool_use call_0 now {}"},
		},
		{
			name: "calls without index are told apart by id",
			body: sseData(
				`{"choices":[{"delta":{"tool_calls":[{"id":"a","function":{"name":"ls","arguments":"{\"path\":"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"\"/\"}"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"id":"b","function":{"name":"ls","arguments":"{}"}}]}}]}`,
				finish("tool_calls"), "[DONE]"),
			wantStop: "tool_use",
			content: []llm.Block{
				{Type: llm.BlockToolUse, ID: "a", Name: "ls", Input: json.RawMessage(`{"path":"/"}`)},
				{Type: llm.BlockToolUse, ID: "b", Name: "ls", Input: json.RawMessage(`{}`)},
			},
			events: []string{`tool_use a ls {"path":"/"}`, "tool_use b ls {}"},
		},
		{
			name: "reasoning is thinking",
			body: sseData(
				`{"choices":[{"delta":{"reasoning_content":"The user greets. "}}]}`,
				`{"choices":[{"delta":{"reasoning":"Reply."}}]}`,
				text, finish("stop"), "[DONE]"),
			wantStop: "end_turn",
			content:  []llm.Block{{Type: llm.BlockThinking, Thinking: "The user greets. Reply."}, {Type: llm.BlockText, Text: "ok"}},
			events:   []string{"thinking The user greets. ", "thinking Reply.", "text ok"},
		},
		{
			name:     "keep-alive comments and empty chunks",
			body:     ": keep-alive\n\n" + sseData(`{"choices":[]}`, text) + ": keep-alive\n\n" + sseData(finish("stop"), "[DONE]"),
			wantStop: "end_turn", content: []llm.Block{{Type: llm.BlockText, Text: "ok"}}, events: []string{"text ok"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := llmtest.NewServer(t, llmtest.Reply{Body: tt.body})
			var sleeps []time.Duration
			var rec llmtest.Recorder
			resp, err := testClient(api, Config{}, &sleeps).Complete(context.Background(), &llm.Request{Model: "m"}, rec.On)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StopReason != tt.wantStop {
				t.Errorf("StopReason = %q, want %q", resp.StopReason, tt.wantStop)
			}
			if diff := cmp.Diff(tt.content, resp.Message.Content); diff != "" {
				t.Errorf("content mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.events, rec.Events); diff != "" {
				t.Errorf("events mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRetry503(t *testing.T) {
	api := llmtest.NewServer(t,
		llmtest.Reply{Status: 503, Header: map[string]string{"Retry-After-Ms": "250"}, Body: `{"error":{"message":"The server is overloaded","type":"server_error","param":null,"code":null}}`},
		llmtest.Reply{Body: llmtest.Fixture(t, "text.sse")})
	var sleeps []time.Duration
	var rec llmtest.Recorder
	resp, err := testClient(api, Config{}, &sleeps).Complete(context.Background(), &llm.Request{Model: "m"}, rec.On)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() != "Hello! How can I help you today?" || len(api.Requests()) != 2 {
		t.Errorf("text %q after %d requests", resp.Message.Text(), len(api.Requests()))
	}
	if diff := cmp.Diff([]time.Duration{250 * time.Millisecond}, sleeps); diff != "" {
		t.Errorf("sleeps mismatch (-want +got):\n%s", diff)
	}
	if len(rec.Events) == 0 || rec.Events[0] != "retry after 250ms: openai API error 503 server_error: The server is overloaded (the service is having trouble; try again shortly)" {
		t.Errorf("events = %q", rec.Events)
	}
}

func TestErrors(t *testing.T) {
	serverError := sseData(`{"error":{"message":"upstream failed","type":"server_error","code":null}}`)
	tests := []struct {
		name     string
		replies  []llmtest.Reply
		wantReqs int
		want     string // substring of the error
		status   int
	}{
		{
			name:     "401 names the key",
			replies:  []llmtest.Reply{{Status: 401, Body: `{"error":{"message":"Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`}},
			wantReqs: 1, status: 401,
			want: "openai API error 401 invalid_request_error: Incorrect API key provided: sk-test.",
		},
		{
			name:     "401 advice",
			replies:  []llmtest.Reply{{Status: 401, Body: `{"error":{"message":"bad key","type":"invalid_request_error"}}`}},
			wantReqs: 1, status: 401, want: "(check OPENAI_API_KEY: the key is missing, mistyped or revoked)",
		},
		{
			name:     "ollama's string error",
			replies:  []llmtest.Reply{{Status: 404, Body: `{"error":"model \"llama9\" not found, try pulling it first"}`}},
			wantReqs: 1, status: 404,
			want: `openai API error 404: model "llama9" not found, try pulling it first (check the model name and OPENAI_BASE_URL)`,
		},
		{
			name:     "error object in the stream, retried, then given up",
			replies:  []llmtest.Reply{{Body: serverError}, {Body: serverError}},
			wantReqs: 2, status: 500,
			want: "openai API error 500 server_error: upstream failed",
		},
		{
			name:     "vLLM's numeric code 400 is not retried",
			replies:  []llmtest.Reply{{Body: sseData(`{"object":"error","error":{"message":"context too long","type":"BadRequestError","code":400}}`)}},
			wantReqs: 1, status: 400,
			want: "openai API error 400 BadRequestError: context too long",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := llmtest.NewServer(t, tt.replies...)
			var sleeps []time.Duration
			_, err := testClient(api, Config{MaxRetries: 1}, &sleeps).Complete(context.Background(), &llm.Request{Model: "m"}, nil)
			apiErr, ok := errors.AsType[*llm.APIError](err)
			if !ok || apiErr.Status != tt.status || apiErr.Provider != "openai" {
				t.Fatalf("err = %v (%T), want an openai APIError with status %d", err, err, tt.status)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
			if n := len(api.Requests()); n != tt.wantReqs {
				t.Errorf("%d requests, want %d", n, tt.wantReqs)
			}
		})
	}
}

func TestStreamFailures(t *testing.T) {
	text := `{"choices":[{"delta":{"content":"partial"}}]}`
	tests := []struct {
		name     string
		replies  []llmtest.Reply
		wantReqs int
		want     string
	}{
		{
			name:     "ended before anything was shown: retried",
			replies:  []llmtest.Reply{{Body: sseData(`{"choices":[{"delta":{"role":"assistant"}}]}`)}, {Body: sseData(text)}},
			wantReqs: 2, want: "openai: reading the response stream: the stream ended before [DONE]",
		},
		{
			name:     "ended after text: returned",
			replies:  []llmtest.Reply{{Body: sseData(text)}},
			wantReqs: 1, want: "openai: reading the response stream: the stream ended before [DONE]",
		},
		{
			name: "invalid arguments name the tool",
			replies: []llmtest.Reply{{Body: sseData(
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_x","function":{"name":"edit","arguments":"{\"path\": "}}]}}]}`,
				`{"choices":[{"delta":{},"finish_reason":"tool_calls"}]}`, "[DONE]")}},
			wantReqs: 1, want: `openai: the model's call of tool "edit" (id call_x) has arguments that are not valid JSON: {"path":`,
		},
		{
			name:     "malformed chunk",
			replies:  []llmtest.Reply{{Body: sseData(`{"choices":[{"delta":{"content":3}}]}`)}},
			wantReqs: 1, want: "openai: malformed chunk in the stream: json: cannot unmarshal number",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := llmtest.NewServer(t, tt.replies...)
			var sleeps []time.Duration
			_, err := testClient(api, Config{MaxRetries: 1}, &sleeps).Complete(context.Background(), &llm.Request{Model: "m"}, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			if n := len(api.Requests()); n != tt.wantReqs {
				t.Errorf("%d requests, want %d", n, tt.wantReqs)
			}
		})
	}
}

func TestCancelMidStream(t *testing.T) {
	api := llmtest.NewServer(t, llmtest.Reply{Body: sseData(`{"choices":[{"delta":{"content":"hel"}}]}`), Hold: true})
	var sleeps []time.Duration
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var rec llmtest.Recorder
	_, err := testClient(api, Config{}, &sleeps).Complete(ctx, &llm.Request{Model: "m"}, func(ev llm.Event) {
		rec.On(ev)
		cancel()
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if diff := cmp.Diff([]string{"text hel"}, rec.Events); diff != "" || len(sleeps) != 0 {
		t.Errorf("events mismatch (-want +got):\n%s; sleeps %v", diff, sleeps)
	}
}

func TestJSONInsteadOfStream(t *testing.T) {
	api := llmtest.NewServer(t, llmtest.Reply{Status: 200, Header: map[string]string{"Content-Type": "application/json"},
		Body: `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`})
	var sleeps []time.Duration
	_, err := testClient(api, Config{}, &sleeps).Complete(context.Background(), &llm.Request{Model: "m"}, nil)
	want := api.URL + "/v1/chat/completions answered with JSON instead of an event stream (check OPENAI_BASE_URL; the server may not support streaming)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want one containing %q", err, want)
	}
	if n := len(api.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// Cached prompt tokens (prompt_tokens_details.cached_tokens) are reported
// as cache reads, for /cost; they stay part of InputTokens.
func TestCachedTokens(t *testing.T) {
	body := `data: {"model":"gpt-4.1","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}

data: {"model":"gpt-4.1","choices":[],"usage":{"prompt_tokens":2006,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":1920}}}

data: [DONE]

`
	api := llmtest.NewServer(t, llmtest.Reply{Body: body})
	var sleeps []time.Duration
	resp, err := testClient(api, Config{}, &sleeps).Complete(context.Background(), &llm.Request{Model: "gpt-4.1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (llm.Usage{InputTokens: 2006, OutputTokens: 3, CacheReadTokens: 1920}); resp.Usage != want {
		t.Errorf("usage %+v, want %+v", resp.Usage, want)
	}
}

// OpenAI and compatible servers cache prompts by prefix, automatically:
// with the session's Prefix, request N+1 starts with request N's bytes
// (all but its closing "]}"), and earlier messages are not encoded again.
func TestPrefixKeepsTheBodyStable(t *testing.T) {
	req := &llm.Request{Model: "m", System: "sys", Prefix: &llm.Prefix{},
		Tools:    []llm.ToolDef{{Name: "now"}},
		Messages: []llm.Message{llmtest.UserText("hi")}}
	var bodies []string
	for i := 0; i < 4; i++ {
		parts, err := body(req, "max_tokens")
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, string(bytes.Join(parts, nil)))
		id := fmt.Sprintf("c%d", i)
		req.Messages = append(req.Messages,
			llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockToolUse, ID: id, Name: "now"}}},
			llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockToolResult, ToolUseID: id, Content: "12:00"}}})
	}
	for i := 0; i+1 < len(bodies); i++ {
		if prefix := strings.TrimSuffix(bodies[i], "]}"); !strings.HasPrefix(bodies[i+1], prefix) {
			t.Errorf("request %d does not start with request %d:\n%s\n%s", i+1, i, bodies[i], bodies[i+1])
		}
	}
	if req.Prefix.Len() != 7 {
		t.Errorf("the prefix holds %d messages; want the 7 sent", req.Prefix.Len())
	}
}
