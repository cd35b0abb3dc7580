package builtin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/tool"
)

// Preview is the diff the edit would make with this input (the input
// that will run, after every rewrite in the hook chain), read from the
// file as Run reads it; nil when Run would fail.
func (e *editTool) Preview(ctx context.Context, input json.RawMessage) *tool.Diff {
	var in struct {
		Path       string  `json:"path"`
		OldString  *string `json:"old_string"`
		NewString  *string `json:"new_string"`
		ReplaceAll bool    `json:"replace_all"`
	}
	if decode(input, &in) != nil || in.Path == "" || in.OldString == nil || *in.OldString == "" || in.NewString == nil {
		return nil
	}
	content, ok := previewText(ctx, e.o, in.Path)
	if !ok {
		return nil
	}
	oldS, newS, count := matchEdit(content, *in.OldString, *in.NewString)
	if count == 0 || count > 1 && !in.ReplaceAll {
		return nil
	}
	n := 1
	if in.ReplaceAll {
		n = -1
	}
	after := strings.Replace(content, oldS, newS, n)
	return whole(tool.NewDiff(in.Path, content, after), content, after)
}

// whole is d with the file's whole text before and after it.
func whole(d *tool.Diff, before, after string) *tool.Diff {
	d.Whole, d.Before, d.After = true, before, after
	return d
}

// Preview is the diff the write would make: the new file's lines, or
// the change from the text it replaces.
func (w *writeTool) Preview(ctx context.Context, input json.RawMessage) *tool.Diff {
	var in struct {
		Path    string  `json:"path"`
		Content *string `json:"content"`
	}
	if decode(input, &in) != nil || in.Path == "" || in.Content == nil || isBinary([]byte(*in.Content)) {
		return nil
	}
	if _, err := os.Stat(w.o.resolve(in.Path)); os.IsNotExist(err) {
		return whole(tool.NewFileDiff(in.Path, *in.Content), "", *in.Content)
	}
	before, ok := previewText(ctx, w.o, in.Path)
	if !ok {
		return nil
	}
	return whole(tool.NewDiff(in.Path, before, *in.Content), before, *in.Content)
}

// previewText is a text file's content as edit and write read it (the
// editor's text when an editor holds the files); ok is false for what
// is no regular text file of at most maxDiffedFile bytes.
func previewText(ctx context.Context, o Options, name string) (string, bool) {
	p := o.resolve(name)
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxDiffedFile {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	data, err := os.ReadFile(p)
	if err != nil || isBinary(data) {
		return "", false
	}
	if o.Files != nil {
		s, err := o.Files.ReadText(ctx, p)
		return s, err == nil
	}
	return string(data), true
}
