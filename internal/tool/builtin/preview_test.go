package builtin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/tool"
)

// TestPreview: the diff edit and write would make, before they run, is
// the diff they make when they run (the permission question shows it);
// an input that would fail previews nothing.
func TestPreview(t *testing.T) {
	for _, tc := range []struct {
		name, tool, input string
		files             map[string]string
		none              bool
	}{
		{name: "edit one line", tool: "edit", input: `{"path":"a.txt","old_string":"beta","new_string":"BETA"}`, files: map[string]string{"a.txt": "alpha\nbeta\ngamma\n"}},
		{name: "edit replace all", tool: "edit", input: `{"path":"a.txt","old_string":"x","new_string":"y","replace_all":true}`, files: map[string]string{"a.txt": "x\nx\n"}},
		{name: "edit crlf", tool: "edit", input: `{"path":"a.txt","old_string":"a\nb","new_string":"a\nB"}`, files: map[string]string{"a.txt": "a\r\nb\r\n"}},
		{name: "edit ambiguous", tool: "edit", input: `{"path":"a.txt","old_string":"x","new_string":"y"}`, files: map[string]string{"a.txt": "x\nx\n"}, none: true},
		{name: "edit not found", tool: "edit", input: `{"path":"a.txt","old_string":"zz","new_string":"y"}`, files: map[string]string{"a.txt": "x\n"}, none: true},
		{name: "edit no file", tool: "edit", input: `{"path":"missing.txt","old_string":"x","new_string":"y"}`, none: true},
		{name: "edit binary", tool: "edit", input: `{"path":"b.bin","old_string":"x","new_string":"y"}`, files: map[string]string{"b.bin": "x\x00"}, none: true},
		{name: "write new", tool: "write", input: `{"path":"sub/new.txt","content":"one\ntwo\n"}`},
		{name: "write over", tool: "write", input: `{"path":"a.txt","content":"one\nTWO\n"}`, files: map[string]string{"a.txt": "one\ntwo\n"}},
		{name: "write bad input", tool: "write", input: `{"path":"a.txt"}`, none: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			tl := tools(t, Options{WorkDir: dir})[tc.tool]
			got := tl.(tool.Previewer).Preview(context.Background(), json.RawMessage(tc.input))
			if tc.none {
				if got != nil {
					t.Fatalf("preview %+v, want none", got)
				}
				return
			}
			var in struct{ Path string }
			json.Unmarshal([]byte(tc.input), &in)
			path, before := filepath.Join(dir, in.Path), tc.files[in.Path]
			res, err := tl.Run(context.Background(), json.RawMessage(tc.input))
			if err != nil || res.IsError {
				t.Fatalf("run: %v %+v", err, res)
			}
			// The whole texts (ACP's question sends them) are the file
			// before and after the run.
			after, _ := os.ReadFile(path)
			if !got.Whole || got.Before != before || got.After != string(after) {
				t.Errorf("preview's whole texts %v %q → %q, want %q → %q", got.Whole, got.Before, got.After, before, after)
			}
			got.Whole, got.Before, got.After = false, "", ""
			if d := cmp.Diff(res.Diff, got); d != "" {
				t.Errorf("preview differs from the diff the run made (-run +preview):\n%s", d)
			}
		})
	}
}
