package session

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/llm"
)

// A subagent's transcript goes into its parent's file, interleaved with
// another child's as they ran side by side: read back, each child has its
// own messages, the parent's conversation has only its own, the listing
// counts only the parent's, and the usage of all is the session's.
func TestSubagentTranscriptsInTheSessionFile(t *testing.T) {
	base := t.TempDir()
	s, err := Create(base, "m", "/w")
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.Append(text(llm.RoleUser, "split it")))
	a, err := s.Child("a1", "general-purpose", "toolu_A", "part A")
	must(err)
	b, err := s.Child("b2", "reviewer", "toolu_B", "part B")
	must(err)
	must(a.Append(text(llm.RoleUser, "do A")))
	must(b.Append(text(llm.RoleUser, "do B")))
	must(b.AppendUsed(text(llm.RoleAssistant, "B done"), llm.Usage{InputTokens: 5, OutputTokens: 1}))
	must(a.AppendUsed(text(llm.RoleAssistant, "A done"), llm.Usage{InputTokens: 7, OutputTokens: 2}))
	must(s.AppendUsed(text(llm.RoleAssistant, "both done"), llm.Usage{InputTokens: 10, OutputTokens: 3}))
	if u := s.Usage(); u.InputTokens != 22 {
		t.Errorf("live usage = %d input tokens, want 22 (the children's added)", u.InputTokens)
	}
	must(a.Close()) // a child's Close leaves the file open
	must(s.Append(text(llm.RoleUser, "thanks")))
	must(s.Close())

	d, err := Read(s.Path)
	must(err)
	var got []string
	for _, sa := range d.Subagents {
		line := fmt.Sprintf("%s %s %s %q:", sa.ID, sa.Type, sa.ParentToolUseID, sa.Description)
		for _, m := range sa.Messages {
			line += " " + m.Text()
		}
		got = append(got, line+fmt.Sprintf(" (%d in)", sa.Usage.InputTokens))
	}
	want := []string{`a1 general-purpose toolu_A "part A": do A A done (7 in)`, `b2 reviewer toolu_B "part B": do B B done (5 in)`}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("subagents (-want +got):\n%s", d)
	}
	var parent []string
	for _, m := range d.Messages {
		parent = append(parent, m.Text())
	}
	if d := cmp.Diff([]string{"split it", "both done", "thanks"}, parent); d != "" {
		t.Errorf("the parent's conversation (-want +got):\n%s", d)
	}
	if d.Usage.InputTokens != 22 {
		t.Errorf("read usage = %d input tokens, want 22", d.Usage.InputTokens)
	}
	infos, err := List(base)
	must(err)
	if len(infos) != 1 || infos[0].Messages != 3 {
		t.Errorf("listing = %+v, want one session of 3 messages", infos)
	}
	o, err := Open(base, s.ID)
	must(err)
	defer o.Close()
	if len(o.Subagents) != 2 || len(o.Messages()) != 3 {
		t.Errorf("Open: %d subagents and %d messages, want 2 and 3", len(o.Subagents), len(o.Messages()))
	}
}
