package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/session"
	"github.com/synaps-cli/synaps/internal/tool"
)

// usageHooks records on_usage events and lets everything else pass.
type usageHooks struct{ events []hook.Event }

func (h *usageHooks) RunHook(_ context.Context, ev hook.Event) hook.Decision {
	if ev.Kind == contract.HookOnUsage {
		h.events = append(h.events, ev)
	}
	return hook.Decision{}
}

func (h *usageHooks) BeforeToolCall(context.Context, tool.Spec, json.RawMessage, string, hook.Confirmer) hook.Decision {
	return hook.Decision{}
}

func (h *usageHooks) AfterToolCall(context.Context, tool.Spec, json.RawMessage, string, bool, string) hook.Decision {
	return hook.Decision{}
}

// twoTurns answers a tool call, then text, each with its usage.
type twoTurns struct{ n int }

func (p *twoTurns) Complete(_ context.Context, _ *llm.Request, _ func(llm.Event)) (*llm.Response, error) {
	p.n++
	if p.n == 1 {
		return &llm.Response{StopReason: llm.StopToolUse, Model: "claude-test-1",
			Message: llm.Message{Content: []llm.Block{{Type: llm.BlockToolUse, ID: "t1", Name: "nothing", Input: json.RawMessage(`{}`)}}},
			Usage:   llm.Usage{InputTokens: 100, OutputTokens: 20, CacheReadTokens: 60, CacheWriteTokens: 10}}, nil
	}
	return &llm.Response{StopReason: llm.StopEndTurn, Model: "claude-test-1",
		Message: llm.Message{Content: []llm.Block{{Type: llm.BlockText, Text: "done"}}},
		Usage:   llm.Usage{InputTokens: 130, OutputTokens: 5}}, nil
}

// TestOnUsageAfterEveryResponse: one on_usage per model response, with
// that response's tokens in SynapsCLI's TurnUsage shape (input_tokens
// without the cached parts).
func TestOnUsageAfterEveryResponse(t *testing.T) {
	base := t.TempDir()
	sess, err := session.Create(base, "anthropic/claude-test", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	hooks := &usageHooks{}
	a := New(Config{Provider: &twoTurns{}, Model: "anthropic/claude-test", Tools: tool.NewRegistry(), Hooks: hooks, Session: sess})
	if err := a.Send(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	type usage struct {
		Input       int `json:"input_tokens"`
		Output      int `json:"output_tokens"`
		CacheRead   int `json:"cache_read_input_tokens"`
		CacheCreate int `json:"cache_creation_input_tokens"`
	}
	type data struct {
		Provider  string `json:"provider"`
		Model     string `json:"model"`
		SessionID string `json:"session_id"`
		TurnID    int    `json:"turn_id"`
		Usage     usage  `json:"usage"`
		Source    struct {
			Runtime string `json:"runtime"`
		} `json:"source"`
	}
	var got []data
	for _, ev := range hooks.events {
		var d data
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatal(err)
		}
		if ev.SessionID != sess.ID || d.SessionID != sess.ID {
			t.Errorf("session ids %q, %q; want %q", ev.SessionID, d.SessionID, sess.ID)
		}
		d.SessionID = ""
		got = append(got, d)
	}
	src := struct {
		Runtime string `json:"runtime"`
	}{"synaps"}
	want := []data{
		{Provider: "anthropic", Model: "claude-test-1", TurnID: 1, Usage: usage{30, 20, 60, 10}, Source: src},
		{Provider: "anthropic", Model: "claude-test-1", TurnID: 2, Usage: usage{130, 5, 0, 0}, Source: src},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("on_usage events (-want +got):\n%s", diff)
	}
}
