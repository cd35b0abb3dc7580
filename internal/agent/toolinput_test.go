package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

// A tool input is checked against the tool's schema before any hook: an
// invalid one (a wrong type, a 5,000-deep value) is an error result to the
// model that no hook sees; unknown top-level fields are dropped, so the
// hooks and the tool see the input without them.
func TestToolInputValidatedBeforeHooks(t *testing.T) {
	base := t.TempDir()
	watch := exttest.Plugin(t, base, "watch", map[string]any{
		"permissions": []string{"tools.intercept"},
		"hooks":       []map[string]any{{"hook": "before_tool_call"}, {"hook": "after_tool_call"}},
	}, exttest.Spec{Record: true})

	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	calls := []string{
		`{"command":"echo poisoned","x":` + deep + `}`,
		`{"command":5}`,
		`{"command":"echo described","description":"prints a word"}`,
		`{"command":"echo plain"}`,
	}
	var uses []string
	for _, c := range calls {
		uses = append(uses, fmt.Sprintf(`{"name":"bash","input":%s}`, c))
	}
	r := newRig(t, base, `{"tool_calls":[`+strings.Join(uses, ",")+`]}
{"text":"done"}
`, nil)
	if err := r.agent.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}

	type result struct {
		Content string
		IsError bool
	}
	var got []result
	for _, b := range r.toolResults() {
		got = append(got, result{b.Content, b.IsError})
	}
	want := []result{
		{`invalid input for tool "bash": input nests objects and arrays more than 64 levels deep; send a flatter input`, true},
		{`invalid input for tool "bash": at /command: expected type string, got number`, true},
		{"described\n", false},
		{"plain\n", false},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("tool results (-want +got):\n%s", d)
	}

	// The hooks saw the two valid calls only, without the unknown field.
	var seen []string
	for _, ev := range exttest.ReadRecord(t, watch) {
		in, _ := json.Marshal(ev["tool_input"])
		line := fmt.Sprintf("%s %s", ev["kind"], in)
		if len(line) > 120 {
			line = line[:120] + "…"
		}
		seen = append(seen, line)
	}
	wantSeen := []string{
		`before_tool_call {"command":"echo described"}`,
		`after_tool_call {"command":"echo described"}`,
		`before_tool_call {"command":"echo plain"}`,
		`after_tool_call {"command":"echo plain"}`,
	}
	if d := cmp.Diff(wantSeen, seen); d != "" {
		t.Errorf("hook events (-want +got):\n%s", d)
	}
}

// A modified input passes the same gate: a wrong type is an error result
// and the tool does not run; an unknown field is dropped before the tool.
func TestModifiedToolInputPassesTheGate(t *testing.T) {
	for _, tc := range []struct {
		name, modify string
		want         string
		isErr        bool
	}{
		{"wrong type", `{"command":7}`, `invalid input for tool "bash": at /command: expected type string, got number`, true},
		{"unknown field dropped", `{"command":"echo rewritten","note":"x"}`, "rewritten\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			guardPlugin(t, base, "rewriter", []string{"tools.intercept"},
				[]map[string]any{{"hook": "before_tool_call", "tool": "bash"}},
				map[string]string{"hook:before_tool_call": `{"action":"modify","input":` + tc.modify + `}`})
			r := newRig(t, base, `{"tool_calls":[{"name":"bash","input":{"command":"echo original"}}]}
{"text":"done"}
`, nil)
			if err := r.agent.Send(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			res := r.toolResults()
			if len(res) != 1 || res[0].Content != tc.want || res[0].IsError != tc.isErr {
				t.Fatalf("tool results = %+v, want %q (error %v)", res, tc.want, tc.isErr)
			}
		})
	}
}
