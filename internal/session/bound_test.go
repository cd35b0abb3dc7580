package session

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/tool"
)

// longestLine is the length of the longest line of the file at path.
func longestLine(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	longest := 0
	for {
		_, size, eof, err := readLine(br, 0)
		if err != nil {
			t.Fatal(err)
		}
		longest = max(longest, size)
		if eof {
			return longest
		}
	}
}

// The report's case, scaled down: many huge extension tool results in
// one turn. Each result is saved at the cap the model gets, so the record
// stays small and the session resumes whole.
func TestHugeTurnIsBoundedWhenSaved(t *testing.T) {
	base := t.TempDir()
	s, err := Create(base, "m", "/")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range 18 {
		ids = append(ids, fmt.Sprintf("t%d", i))
	}
	s.Append(text(llm.RoleUser, "run them all"))
	s.Append(use(ids...))
	results := llm.Message{Role: llm.RoleUser}
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	for _, id := range ids {
		results.Content = append(results.Content, llm.Block{Type: llm.BlockToolResult, ToolUseID: id, Content: "head " + big + " tail"})
	}
	s.Append(results)
	s.Close()

	if n := longestLine(t, s.Path); n > 18*(tool.DefaultMaxOutput+tool.OutputNoteSlack)+64<<10 {
		t.Errorf("the turn's record is %d bytes; 18 results at the model's cap need far less", n)
	}
	r, err := Open(base, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	msgs := r.Messages()
	if len(msgs) != 3 || len(r.Warnings) != 0 {
		t.Fatalf("resumed %d messages with warnings %q; want 3, none", len(msgs), r.Warnings)
	}
	for _, b := range msgs[2].Content {
		if len(b.Content) > tool.DefaultMaxOutput+tool.OutputNoteSlack || !strings.HasPrefix(b.Content, "head ") || !strings.HasSuffix(b.Content, " tail") || !strings.Contains(b.Content, "bytes truncated") {
			t.Fatalf("saved result of %d bytes (%.40q…); want head and tail within %d bytes", len(b.Content), b.Content, tool.DefaultMaxOutput)
		}
	}
}

// Whatever one message holds, its record fits MaxRecord, and the
// conversation stays valid.
func TestEveryRecordFitsMaxRecord(t *testing.T) {
	huge := strings.Repeat("\"quoted\"\n", (MaxRecord+MaxRecord/2)/9) // escapes double it
	input, _ := json.Marshal(map[string]string{"content": huge})
	many := llm.Message{Role: llm.RoleUser}
	manyCalls := llm.Message{Role: llm.RoleAssistant}
	for i := range 400 {
		id := fmt.Sprintf("c%d", i)
		manyCalls.Content = append(manyCalls.Content, llm.Block{Type: llm.BlockToolUse, ID: id, Name: "x", Input: []byte(`{}`)})
		many.Content = append(many.Content, llm.Block{Type: llm.BlockToolResult, ToolUseID: id, Content: strings.Repeat("r", tool.DefaultMaxOutput)})
	}
	cases := map[string][]llm.Message{
		"huge text": {text(llm.RoleUser, huge)},
		"huge tool input": {text(llm.RoleUser, "write it"), {Role: llm.RoleAssistant, Content: []llm.Block{
			{Type: llm.BlockToolUse, ID: "w", Name: "write", Input: input}}}, result("w")},
		"400 results at the cap": {text(llm.RoleUser, "go"), manyCalls, many},
		"three pictures": {{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: "compare"},
			picture(), picture(), picture()}}},
		"results with pictures": {text(llm.RoleUser, "read them"), {Role: llm.RoleAssistant, Content: []llm.Block{
			{Type: llm.BlockToolUse, ID: "a", Name: "read", Input: []byte(`{}`)}, {Type: llm.BlockToolUse, ID: "b", Name: "read", Input: []byte(`{}`)}}},
			{Role: llm.RoleUser, Content: []llm.Block{
				{Type: llm.BlockToolResult, ToolUseID: "a", Content: "a.png", Images: picture().Images},
				{Type: llm.BlockToolResult, ToolUseID: "b", Content: "b.png", Images: picture().Images}}}},
	}
	for name, msgs := range cases {
		base := t.TempDir()
		s, _ := writeSession(t, base, msgs)
		if n := longestLine(t, s.Path); n > MaxRecord {
			t.Errorf("%s: a record of %d bytes was saved; MaxRecord is %d", name, n, MaxRecord)
		}
		d, err := Read(s.Path)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Damaged) != 0 || len(d.Messages) != len(msgs) {
			t.Errorf("%s: read back %d messages, damaged %+v", name, len(d.Messages), d.Damaged)
		}
		if err := Check(d.Messages, true); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A record too long to read (written before records were bounded, or by
// anything else) is skipped with a warning naming the file and line; the
// rest of the session is read, listed as damaged, and is still the one
// --continue picks.
func TestOverlongRecordIsSkippedNotTheSession(t *testing.T) {
	base := t.TempDir()
	s, lines := writeSession(t, base, []llm.Message{
		text(llm.RoleUser, "first"), use("t1"), result("t1"), text(llm.RoleAssistant, "done"),
	})
	old, _ := Create(base, "m", "/") // an older session --continue must not fall back to
	old.Append(text(llm.RoleUser, "older"))
	old.Close()
	long := lines[3][:len(lines[3])-2] + strings.Repeat(" ", MaxRecord) + "]}}"
	lines[3] = long
	os.WriteFile(s.Path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	// The older one is older by its header time.
	rewriteTime(t, old.Path, "2020-01-01T00:00:00Z")

	d, err := Read(s.Path)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if len(d.Damaged) != 1 || d.Damaged[0].Line != 4 || !strings.Contains(d.Damaged[0].Reason, "more than the") {
		t.Fatalf("damaged = %+v; want line 4, too long", d.Damaged)
	}
	if w := strings.Join(d.Warnings(), "\n"); !strings.Contains(w, s.Path+" line 4:") {
		t.Errorf("warnings do not name file and line: %s", w)
	}
	if err := Check(d.Messages, false); err != nil || len(d.Messages) != 4 {
		t.Errorf("%d messages, %v", len(d.Messages), err)
	}
	list, err := List(base)
	if err != nil || len(list) != 2 {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if list[0].ID != s.ID || list[0].Damaged != 1 || list[0].Title != "first" {
		t.Errorf("newest listed: %+v; want %s with 1 damaged line", list[0], s.ID)
	}
	if id, err := Latest(base); id != s.ID || err != nil {
		t.Errorf("Latest = %s, %v; want the damaged session %s", id, err, s.ID)
	}
}

// A session file that cannot be read at all is listed with the reason,
// and --continue says so rather than resuming an older session.
func TestUnreadableSessionIsListedAndNotSkippedOver(t *testing.T) {
	base := t.TempDir()
	old, _ := Create(base, "m", "/")
	old.Append(text(llm.RoleUser, "older"))
	old.Close()
	rewriteTime(t, old.Path, "2020-01-01T00:00:00Z")
	bad := filepath.Join(Dir(base), "29990101-000000-bad1.jsonl")
	os.WriteFile(bad, []byte("garbage\n"), 0o600)
	list, err := List(base)
	if err != nil || len(list) != 2 {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if list[0].ID != "29990101-000000-bad1" || !strings.Contains(list[0].Error, "not a synaps session") {
		t.Errorf("newest listed: %+v; want the unreadable one with its reason", list[0])
	}
	if id, err := Latest(base); err == nil || !strings.Contains(err.Error(), "29990101-000000-bad1") || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("Latest = %q, %v; want an error naming the unreadable session and the fix", id, err)
	}
}

// rewriteTime sets the header time of a session file.
func rewriteTime(t *testing.T, path, when string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(data), "\n")
	var r map[string]any
	json.Unmarshal([]byte(first), &r)
	r["time"] = when
	b, _ := json.Marshal(r)
	os.WriteFile(path, []byte(string(b)+"\n"+rest), 0o600)
}

// picture is an image block of 4 MB, the most read and @ attach.
func picture() llm.Block {
	return llm.Block{Type: llm.BlockImage, Images: []llm.Image{{MediaType: "image/png", Data: strings.Repeat("A", 4<<20)}}}
}
