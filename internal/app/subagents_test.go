package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The user's agents/*.md are the agent tool's types, with their
// frontmatter's budget; a config value for the subagent settings that is
// not a number is a note naming the file and key, not a silent default.
func TestSubagentsFromTheUsersAgents(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	write(t, filepath.Join(base, "agents", "helper.md"), "---\nname: helper\ndescription: Helps out\ntools: Read\nmax_turns: 1\n---\nYou help.\n")
	write(t, filepath.Join(base, "config"), "subagent_max_parallel = four\n")
	a := open(t, base, work, `{"tool_calls":[{"name":"agent","input":{"description":"help","prompt":"help me","subagent_type":"helper"}}],"expect":{"system_contains":"synaps"}}
{"tool_calls":[{"name":"read","input":{"path":"x"}}],"expect":{"system_contains":"You help."}}
{"text":"ok","expect":{"last_tool_result_contains":"agent helper stopped: its budget is exhausted (stopped after 1 model request)"}}
`)
	_, spec, ok := a.Tools.Lookup("agent")
	if !ok || !strings.Contains(spec.Description, "- helper: Helps out (tools: Read)") {
		t.Fatalf("the agent tool does not offer the user's helper agent: %q", spec.Description)
	}
	var note string
	for _, n := range a.Notes {
		if strings.Contains(n, "subagent_max_parallel") {
			note = n
		}
	}
	if want := `subagent_max_parallel = "four" is not a whole number of 0 or more, so the default is used`; !strings.Contains(note, want) || !strings.Contains(note, filepath.Join(base, "config")) {
		t.Errorf("note = %q; want it to name the file and say %q", note, want)
	}
	if err := a.Agent.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
}
