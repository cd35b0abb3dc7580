package claude

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/llm"
)

// TestTranscript: the mirror holds the conversation in Claude's shapes,
// appended as it grows, and a hook can find the last assistant message
// the way real hooks do (grep the compact text, take the last line).
func TestTranscript(t *testing.T) {
	dir := t.TempDir()
	tr := &Transcript{Path: TranscriptPath(dir, "s-1"), SessionID: "s-1", Cwd: "/p"}
	msgs := []llm.Message{
		{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: "list files"}}},
		{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockText, Text: "Looking."}, {Type: llm.BlockToolUse, ID: "t1", Name: "ls", Input: json.RawMessage(`{"path":"."}`)}}},
		{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockToolResult, ToolUseID: "t1", Content: "a.txt"}}},
	}
	if err := tr.Sync(msgs[:2]); err != nil {
		t.Fatal(err)
	}
	msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockText, Text: "There is a.txt."}}})
	if err := tr.Sync(msgs); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(tr.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, m)
	}
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 4", len(lines))
	}
	for i, l := range lines {
		if l["type"] != []string{"user", "assistant", "user", "assistant"}[i] || l["sessionId"] != "s-1" || l["message"] == nil {
			t.Errorf("line %d: %v", i, l)
		}
		if i > 0 && l["parentUuid"] != lines[i-1]["uuid"] {
			t.Errorf("line %d: parentUuid %v, want %v", i, l["parentUuid"], lines[i-1]["uuid"])
		}
	}
	out, err := exec.Command("sh", "-c", `grep '"role":"assistant"' "$0" | tail -1`, tr.Path).Output()
	if err != nil || !strings.Contains(string(out), "There is a.txt.") {
		t.Errorf("a hook's grep for the last answer found %q (%v)", out, err)
	}
	// A compacted conversation starts the mirror again.
	if err := tr.Sync(msgs[:1]); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(tr.Path); strings.Count(string(b), "\n") != 1 {
		t.Errorf("after compaction the mirror has %q", b)
	}
	if fi, _ := os.Stat(filepath.Dir(tr.Path)); fi.Mode().Perm() != 0o700 {
		t.Errorf("mirror directory mode %v", fi.Mode().Perm())
	}
}
