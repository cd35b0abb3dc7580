package session

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/llm"
)

// ModelAnswers counts the assistant messages since the last model switch,
// a subagent's included, and names the session a compacted one came from
// unless the model switched since.
func TestModelAnswers(t *testing.T) {
	base := t.TempDir()
	msg := func(role llm.Role) llm.Message {
		return llm.Message{Role: role, Content: []llm.Block{{Type: llm.BlockText, Text: "x"}}}
	}
	type got struct {
		Answers int
		From    string
	}
	count := func(id string) got {
		t.Helper()
		n, from, err := ModelAnswers(base, id)
		if err != nil {
			t.Fatal(err)
		}
		return got{n, from}
	}

	s, err := Create(base, "script:a.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []llm.Message{msg(llm.RoleUser), msg(llm.RoleAssistant), msg(llm.RoleUser), msg(llm.RoleAssistant)} {
		if err := s.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	child, err := s.Child("a0123456789abcdef", "general-purpose", "toolu_1", "task")
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Append(msg(llm.RoleUser)); err != nil {
		t.Fatal(err)
	}
	if err := child.Append(msg(llm.RoleAssistant)); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(got{3, ""}, count(s.ID)); d != "" {
		t.Errorf("two answers and a subagent's (-want +got):\n%s", d)
	}
	if err := s.SetModel("script:b.jsonl"); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(got{0, ""}, count(s.ID)); d != "" {
		t.Errorf("after a model switch (-want +got):\n%s", d)
	}
	if err := s.Append(msg(llm.RoleUser)); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(msg(llm.RoleAssistant)); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(got{1, ""}, count(s.ID)); d != "" {
		t.Errorf("one answer since the switch (-want +got):\n%s", d)
	}
	s.Close()

	c, err := CreateCompacted(base, "script:b.jsonl", "", s.ID, "summary")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Append(msg(llm.RoleUser)); err != nil {
		t.Fatal(err)
	}
	if err := c.Append(msg(llm.RoleAssistant)); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if d := cmp.Diff(got{1, s.ID}, count(c.ID)); d != "" {
		t.Errorf("compacted session (-want +got):\n%s", d)
	}
	if _, _, err := ModelAnswers(base, "20260101-000000-none"); err == nil {
		t.Error("no error for a session that does not exist")
	}
}
