package session

import (
	"testing"

	"github.com/synaps-cli/synaps/internal/llm"
)

// BenchmarkAppend is one tool turn's two records (the call, its result)
// written to a session: the per-message cost on the tool call path,
// without the fsync at the turn boundary.
func BenchmarkAppend(b *testing.B) {
	s, err := Create(b.TempDir(), "m", "/")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	call := llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{
		{Type: llm.BlockText, Text: "Let me look."},
		{Type: llm.BlockToolUse, ID: "toolu_01", Name: "bash", Input: []byte(`{"command":"ls -la"}`)},
	}}
	result := llm.Message{Role: llm.RoleUser, Content: []llm.Block{
		{Type: llm.BlockToolResult, ToolUseID: "toolu_01", Content: "total 8\ndrwxr-xr-x 2 u u 4096 a\n-rw-r--r-- 1 u u 120 main.go\n"},
	}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.Append(call); err != nil {
			b.Fatal(err)
		}
		if err := s.Append(result); err != nil {
			b.Fatal(err)
		}
	}
}
