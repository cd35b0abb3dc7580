package hook

import (
	"encoding/json"
	"testing"

	"github.com/synaps-cli/synaps/internal/contract"
)

func TestSubscriptionMatches(t *testing.T) {
	contains := func(s string) *Matcher { return &Matcher{InputContains: &s} }
	equals := func(s string) *Matcher { return &Matcher{InputEquals: json.RawMessage(s)} }
	const model, runtime = "hello-ext_hello", "hello-ext:hello"
	tests := []struct {
		name  string
		sub   Subscription
		model string
		rt    string
		input string
		want  bool
	}{
		{"no filter matches every tool", Subscription{Hook: contract.HookBeforeToolCall}, "bash", "bash", `{"command":"ls"}`, true},
		{"tool by model name", Subscription{Hook: contract.HookBeforeToolCall, Tool: model}, model, runtime, `{}`, true},
		{"tool by runtime name", Subscription{Hook: contract.HookBeforeToolCall, Tool: runtime}, model, runtime, `{}`, true},
		{"other tool", Subscription{Hook: contract.HookBeforeToolCall, Tool: "bash"}, model, runtime, `{}`, false},
		{"tool name is case-sensitive", Subscription{Hook: contract.HookBeforeToolCall, Tool: "Bash"}, "bash", "bash", `{}`, false},

		{"contains in compact text", Subscription{Hook: contract.HookBeforeToolCall, Tool: "bash", Match: contains("rm -rf")},
			"bash", "bash", `{"command": "sudo rm -rf /"}`, true},
		{"contains absent", Subscription{Hook: contract.HookBeforeToolCall, Match: contains("rm -rf")},
			"bash", "bash", `{"command":"ls -la"}`, false},
		{"contains spans key and value of compact text", Subscription{Hook: contract.HookBeforeToolCall, Match: contains(`"command":"ls`)},
			"bash", "bash", "{\n  \"command\" :  \"ls -la\"\n}", true},
		{"contains sees unescaped HTML characters", Subscription{Hook: contract.HookBeforeToolCall, Match: contains(`a > b && c`)},
			"bash", "bash", `{"command":"a \u003e b \u0026\u0026 c"}`, true},
		{"contains sees escaped quotes as JSON text", Subscription{Hook: contract.HookBeforeToolCall, Match: contains(`echo \"hi\"`)},
			"bash", "bash", `{"command":"echo \"hi\""}`, true},
		{"contains sees non-ASCII plainly", Subscription{Hook: contract.HookBeforeToolCall, Match: contains(`café`)},
			"bash", "bash", `{"command":"echo caf\u00e9"}`, true},
		{"contains on wrong tool", Subscription{Hook: contract.HookBeforeToolCall, Tool: "write", Match: contains("rm")},
			"bash", "bash", `{"command":"rm x"}`, false},

		{"equals exact", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"command":"ls"}`)},
			"bash", "bash", `{"command":"ls"}`, true},
		{"equals with reordered keys and nested values", Subscription{Hook: contract.HookBeforeToolCall,
			Match: equals(`{"a":1,"b":{"y":[1,2,{"k":true}],"x":null},"c":"s"}`)},
			"t", "t", `{ "c" : "s", "b": {"x": null, "y": [1.0, 2e0, {"k": true}]}, "a": 1 }`, true},
		{"equals: array order matters", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"a":[1,2]}`)},
			"t", "t", `{"a":[2,1]}`, false},
		{"equals: extra key", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"command":"ls"}`)},
			"bash", "bash", `{"command":"ls","timeout":5}`, false},
		{"equals: different value", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"command":"ls"}`)},
			"bash", "bash", `{"command":"ls -la"}`, false},
		{"equals: string is not number", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"n":1}`)},
			"t", "t", `{"n":"1"}`, false},
		{"equals: large integers compared exactly", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"n":9007199254740993}`)},
			"t", "t", `{"n":9007199254740992}`, false},
		{"equals: invalid input", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"n":1}`)},
			"t", "t", `{"n":`, false},

		{"combined: all match", Subscription{Hook: contract.HookBeforeToolCall, Tool: "bash",
			Match: &Matcher{InputContains: strPtr("push"), InputEquals: json.RawMessage(`{"command":"git push"}`)}},
			"bash", "bash", `{"command":"git push"}`, true},
		{"combined: contains fails", Subscription{Hook: contract.HookBeforeToolCall, Tool: "bash",
			Match: &Matcher{InputContains: strPtr("pull"), InputEquals: json.RawMessage(`{"command":"git push"}`)}},
			"bash", "bash", `{"command":"git push"}`, false},
		{"combined: equals fails", Subscription{Hook: contract.HookBeforeToolCall, Tool: "bash",
			Match: &Matcher{InputContains: strPtr("push"), InputEquals: json.RawMessage(`{"command":"git push -f"}`)}},
			"bash", "bash", `{"command":"git push"}`, false},
		{"combined: tool fails", Subscription{Hook: contract.HookBeforeToolCall, Tool: "write",
			Match: &Matcher{InputContains: strPtr("push")}},
			"bash", "bash", `{"command":"git push"}`, false},
		{"empty matcher matches", Subscription{Hook: contract.HookBeforeToolCall, Match: &Matcher{}}, "bash", "bash", `{}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.sub.Matches(tt.model, tt.rt, json.RawMessage(tt.input)); got != tt.want {
				t.Errorf("Matches(%q, %q, %s) = %v, want %v", tt.model, tt.rt, tt.input, got, tt.want)
			}
		})
	}
}

func TestMatchText(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{ "a" : [1, 2] }`, `{"a":[1,2]}`},
		{`{"c":"a \u003c b"}`, `{"c":"a < b"}`},
		{`{"c":"\/path\ttab \"q\" \\ \u0001"}`, `{"c":"/path\ttab \"q\" \\ \u0001"}`},
		{`{"\u006bey":"v"}`, `{"key":"v"}`},
		{`not json`, `not json`},
	}
	for _, tt := range tests {
		if got := string(matchText(json.RawMessage(tt.in))); got != tt.want {
			t.Errorf("matchText(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func strPtr(s string) *string { return &s }
