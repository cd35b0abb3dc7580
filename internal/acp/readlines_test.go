package acp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/google/go-cmp/cmp"
)

// TestEditorReadsTheLinesNeeded: reading 5 lines of a 22 MB file through
// the editor asks it for those lines (and one more, to say whether the
// file goes on), not the whole file. Asked whole, the 22 MB answer was
// one line over the SDK's 10 MB limit, and the connection ended.
func TestEditorReadsTheLinesNeeded(t *testing.T) {
	base := t.TempDir()
	model := script(t, base, "turns.jsonl",
		`{"text":"Reading.","tool_calls":[{"name":"read","input":{"path":"big.log","offset":1000,"limit":5}}]}`,
		`{"text":"Done.","expect":{"last_tool_result_contains":"line 1004 of the editor's buffer"}}`,
	)
	ed := &editor{answer: "allow_once"}
	r := start(t, base, model, ed)
	ctx := context.Background()
	big := filepath.Join(r.work, "big.log")
	var b strings.Builder
	for i := 1; b.Len() < 22<<20; i++ {
		fmt.Fprintf(&b, "line %d of the editor's buffer %s\n", i, strings.Repeat("x", 200))
	}
	os.WriteFile(big, []byte(b.String()), 0o644)
	if _, err := r.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}}); err != nil {
		t.Fatal(err)
	}
	s, err := r.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: r.work, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := r.conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("read it")}}); err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", resp, errText(err))
	}
	ed.mu.Lock()
	defer ed.mu.Unlock()
	type asked struct{ Line, Limit int }
	var got []asked
	for _, rd := range ed.reads {
		if rd.Line == nil || rd.Limit == nil {
			t.Fatalf("read %s whole; want the lines needed", rd.Path)
		}
		got = append(got, asked{*rd.Line, *rd.Limit})
	}
	if diff := cmp.Diff([]asked{{1000, 6}}, got); diff != "" {
		t.Errorf("fs/read_text_file requests (-want +got):\n%s", diff)
	}
	var result string
	for _, u := range ed.updates {
		if c := u.ToolCallUpdate; c != nil && c.RawOutput != nil {
			result = fmt.Sprint(c.RawOutput)
		}
	}
	for _, want := range []string{"  1000\tline 1000 of", "  1004\tline 1004 of", "the file continues; use offset=1005"} {
		if !strings.Contains(result, want) {
			t.Errorf("result lacks %q:\n%.500s", want, result)
		}
	}
	if strings.Contains(result, "line 1005 of") {
		t.Errorf("result shows line 1005:\n%.500s", result)
	}
}
