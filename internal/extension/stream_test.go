package extension

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/llm"
)

// TestStreamedAnswer: provider.stream.event pieces, wrapped or flat,
// become the answer when the final result has no content; events are
// passed on as they come.
func TestStreamedAnswer(t *testing.T) {
	var seen []string
	sink := &streamSink{onEvent: func(ev llm.Event) { seen = append(seen, string(ev.Type)+":"+ev.Text) }}
	for _, ev := range []string{
		`{"event":{"type":"thinking","delta":"hmm"}}`,
		`{"event":{"type":"text","delta":"pong "}}`,
		`{"type":"text","text":"back"}`,
		`{"type":"tool_use","name":"bash","input":{"command":"ls"}}`,
		`{"type":"usage","input_tokens":7,"output_tokens":2}`,
		`{"type":"done"}`,
		`not json`,
	} {
		sink.event(json.RawMessage(ev))
	}
	p := &extProvider{model: "x:y:z"}
	resp, err := p.decodeStreamed(json.RawMessage(`{"content":[]}`), sink)
	if err != nil {
		t.Fatal(err)
	}
	want := []llm.Block{
		{Type: llm.BlockThinking, Thinking: "hmm"},
		{Type: llm.BlockText, Text: "pong back"},
		{Type: llm.BlockToolUse, ID: "toolu_ext_stream_0", Name: "bash", Input: json.RawMessage(`{"command":"ls"}`)},
	}
	if diff := cmp.Diff(want, resp.Message.Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
	if resp.StopReason != llm.StopToolUse || resp.Usage.InputTokens != 7 || resp.Usage.OutputTokens != 2 {
		t.Errorf("stop %q usage %+v", resp.StopReason, resp.Usage)
	}
	if diff := cmp.Diff([]string{"thinking:hmm", "text:pong ", "text:back", "tool_use:"}, seen); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}

	// A final result with content wins; its text, streamed already, is
	// not passed on again.
	seen = nil
	sink2 := &streamSink{onEvent: sink.onEvent}
	sink2.event(json.RawMessage(`{"type":"text","delta":"draft"}`))
	resp, err = p.decodeStreamed(json.RawMessage(`{"content":[{"type":"text","text":"final"}]}`), sink2)
	if err != nil || resp.Message.Content[0].Text != "final" {
		t.Fatalf("%+v, %v", resp, err)
	}
	if diff := cmp.Diff([]string{"text:draft"}, seen); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}

	// An error event fails the answer with its message.
	sink3 := &streamSink{}
	sink3.event(json.RawMessage(`{"type":"error","message":"model not loaded"}`))
	if _, err := p.decodeStreamed(json.RawMessage(`{}`), sink3); err == nil || err.Error() != "model x:y:z: model not loaded" {
		t.Errorf("error event: %v", err)
	}
}

func TestStreamsCapability(t *testing.T) {
	decls, err := decodeProviders(json.RawMessage(`[{"id":"p","models":[{"id":"a","capabilities":{"streaming":true}},{"id":"b","capabilities":["streaming"]},{"id":"c"},"d"]}]`))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]bool{"a": true, "b": true}, decls[0].Streaming); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
