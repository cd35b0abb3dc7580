package session

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/llm"
)

func use(ids ...string) llm.Message {
	m := llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockText, Text: "running"}}}
	for _, id := range ids {
		m.Content = append(m.Content, llm.Block{Type: llm.BlockToolUse, ID: id, Name: "bash", Input: []byte(`{"command":"ls"}`)})
	}
	return m
}

func result(ids ...string) llm.Message {
	m := llm.Message{Role: llm.RoleUser}
	for _, id := range ids {
		m.Content = append(m.Content, llm.Block{Type: llm.BlockToolResult, ToolUseID: id, Content: "out of " + id})
	}
	return m
}

// conversation is a session with every kind of message: text, one tool
// call, two parallel tool calls.
func conversation() []llm.Message {
	return []llm.Message{
		text(llm.RoleUser, "list the files"),
		use("t1"),
		result("t1"),
		text(llm.RoleAssistant, "There is a.go."),
		text(llm.RoleUser, "and the tests?"),
		use("t2", "t3"),
		result("t2", "t3"),
		text(llm.RoleAssistant, "Two test files."),
		text(llm.RoleUser, "thanks"),
		text(llm.RoleAssistant, "You're welcome."),
	}
}

// Check must refuse what the model APIs refuse, or the damage test below
// could pass on a conversation no API would accept.
func TestCheckRefusesInvalidConversations(t *testing.T) {
	cases := []struct {
		name string
		msgs []llm.Message
		open bool
		want string // "" for valid
	}{
		{"whole", conversation(), false, ""},
		{"orphan result", []llm.Message{text(llm.RoleUser, "hi"), text(llm.RoleAssistant, "ok"), result("t1")}, false, "answers no tool call"},
		{"unanswered call mid-conversation", []llm.Message{text(llm.RoleUser, "hi"), use("t1"), text(llm.RoleUser, "?")}, false, "has no result"},
		{"unanswered call at the end of a finished conversation", []llm.Message{text(llm.RoleUser, "hi"), use("t1")}, false, "has no result"},
		{"unanswered call while a turn runs", []llm.Message{text(llm.RoleUser, "hi"), use("t1")}, true, ""},
		{"starts with an answer", []llm.Message{text(llm.RoleAssistant, "hi")}, false, "starts with the user"},
		{"two answers in a row", []llm.Message{text(llm.RoleUser, "hi"), text(llm.RoleAssistant, "a"), text(llm.RoleAssistant, "b")}, false, "in a row"},
		{"text before results", []llm.Message{text(llm.RoleUser, "hi"), use("t1"), {Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: "x"}, {Type: llm.BlockToolResult, ToolUseID: "t1"}}}}, false, "after other content"},
		{"empty message", []llm.Message{text(llm.RoleUser, "hi"), text(llm.RoleAssistant, "a"), {Role: llm.RoleUser}}, false, "empty"},
	}
	for _, c := range cases {
		err := Check(c.msgs, c.open)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: Check = %v, want %q", c.name, err, c.want)
		}
	}
}

// writeSession saves msgs as a session file and returns the session and
// its lines.
func writeSession(t *testing.T, base string, msgs []llm.Message) (*Session, []string) {
	t.Helper()
	s, err := Create(base, "m", "/")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if err := s.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	f, _ := os.Open(s.Path)
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return s, lines
}

// Whichever message line of a session is damaged, the resumed conversation
// is one the model APIs accept, the user is told which line of which file,
// and the gap is marked in the conversation.
func TestDamagedMiddleLineResumesIntoValidConversation(t *testing.T) {
	msgs := conversation()
	for k := 1; k <= len(msgs); k++ { // line 0 is the header
		base := t.TempDir()
		s, lines := writeSession(t, base, msgs)
		lines[k] = `{"v":1,"type":"message","message":{"role":` + "\x00garbage"
		os.WriteFile(s.Path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)

		r, err := Open(base, s.ID)
		if err != nil {
			t.Fatalf("line %d damaged: Open: %v", k+1, err)
		}
		got := r.Messages()
		r.Close()
		if err := Check(got, false); err != nil {
			t.Errorf("line %d damaged: the resumed conversation is invalid: %v", k+1, err)
		}
		warned := strings.Join(r.Warnings, "\n")
		if !strings.Contains(warned, s.Path) || !strings.Contains(warned, "line "+itoa(k+1)+":") {
			t.Errorf("line %d damaged: warnings do not name the file and line:\n%s", k+1, warned)
		}
		if k < len(msgs) && !strings.Contains(allText(got), "line "+itoa(k+1)+" of its session file") {
			t.Errorf("line %d damaged: the gap is not marked in the conversation", k+1)
		}
		// Every message not on the damaged line is still there, in order,
		// but for the results of tool calls that were on it (orphans).
		var kept []llm.Message
		for i, m := range msgs {
			orphan := i == k && len(msgs[k-1].ToolUses()) > 0
			if i != k-1 && !orphan {
				kept = append(kept, m)
			}
		}
		if d := cmp.Diff(texts(kept), texts(got)); d != "" && !strings.Contains(d, "synaps:") {
			t.Errorf("line %d damaged: messages lost (-want +got):\n%s", k+1, d)
		}
	}
}

// The case from the report: the answer that called a tool is damaged, so
// its result is an orphan. It is dropped, and nothing else is.
func TestOrphanToolResultIsDropped(t *testing.T) {
	base := t.TempDir()
	s, lines := writeSession(t, base, conversation())
	lines[2] = "{damaged"
	os.WriteFile(s.Path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	d, err := Read(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range d.Messages {
		for _, b := range m.Content {
			if b.ToolUseID == "t1" {
				t.Fatalf("the orphan result of t1 is still in the conversation: %+v", m)
			}
		}
	}
	if len(d.Damaged) != 1 || d.Damaged[0].Line != 3 {
		t.Errorf("damaged = %+v, want line 3", d.Damaged)
	}
	if !strings.Contains(strings.Join(d.Warnings(), "\n"), "dropped the result of tool call t1") {
		t.Errorf("warnings do not say the result was dropped: %q", d.Warnings())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func allText(msgs []llm.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Text())
	}
	return b.String()
}

// texts is the user-visible text of each message, without synaps's notes.
func texts(msgs []llm.Message) []string {
	var out []string
	for _, m := range msgs {
		var parts []string
		for _, b := range m.Content {
			switch {
			case b.Type == llm.BlockText && !strings.HasPrefix(b.Text, "[synaps:"):
				parts = append(parts, b.Text)
			case b.Type == llm.BlockToolUse:
				parts = append(parts, "use "+b.ID)
			case b.Type == llm.BlockToolResult && b.Content != ResultLost:
				parts = append(parts, "result "+b.ToolUseID)
			}
		}
		if len(parts) > 0 {
			out = append(out, string(m.Role)+": "+strings.Join(parts, " | "))
		}
	}
	return out
}
