package extension

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/tool"
)

// An extension tool may return what it changed in a file as "diff":
// {path, before, after}; it reaches the UI as the same tool.Diff the
// built-in edit makes, and the model still gets only the output. A
// malformed diff is said in the extension's log, and the result stands.
func TestExtensionToolReturnsADiff(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "differ", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{
		Init: json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[
			{"name":"save","description":"save","input_schema":{"type":"object"}},
			{"name":"create","description":"create","input_schema":{"type":"object"}},
			{"name":"broken","description":"broken","input_schema":{"type":"object"}}]}}`),
		Results: map[string]json.RawMessage{
			"tool:save":   json.RawMessage(`{"output":"saved notes.txt","diff":{"path":"notes.txt","before":"a\nb\n","after":"a\nc\n"}}`),
			"tool:create": json.RawMessage(`{"content":[{"type":"text","text":"created"}],"diff":{"path":"new.txt","before":null,"after":"x\n"}}`),
			"tool:broken": json.RawMessage(`{"output":"done","diff":{"before":"a"}}`),
		},
	})
	h := startHost(t, base, nil)

	save := callTool(t, h, "differ_save", `{}`)
	if save.Output != "saved notes.txt" || save.Diff == nil {
		t.Fatalf("save: %+v", save)
	}
	want := &tool.Diff{Path: "notes.txt", Added: 1, Removed: 1, Lines: []tool.DiffLine{
		{Kind: " ", Old: 1, New: 1, Text: "a"}, {Kind: "-", Old: 2, Text: "b"}, {Kind: "+", New: 2, Text: "c"},
	}}
	if d := cmp.Diff(want, save.Diff); d != "" {
		t.Errorf("save diff (-want +got):\n%s", d)
	}
	create := callTool(t, h, "differ_create", `{}`)
	if create.Output != "created" || create.Diff == nil || !create.Diff.Created || create.Diff.Added != 1 {
		t.Errorf("create: %+v, diff %+v", create, create.Diff)
	}
	broken := callTool(t, h, "differ_broken", `{}`)
	if broken.Output != "done" || broken.IsError || broken.Diff != nil {
		t.Errorf("broken: %+v", broken)
	}
	h.Shutdown()
	logs, _ := os.ReadFile(filepath.Join(base, "extensions", "logs", "differ.log"))
	if !strings.Contains(string(logs), `tool broken: result "diff" has no "path"`) {
		t.Errorf("the malformed diff is not in the extension's log:\n%s", logs)
	}
}
