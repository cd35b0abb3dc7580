package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/tool"
)

// writeTool creates or replaces a file.
type writeTool struct{ o Options }

var writeSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"path":    {"type": "string", "description": "File to write, relative to the working directory or absolute."},
		"content": {"type": "string", "description": "The complete new content of the file."}
	},
	"required": ["path", "content"],
	"additionalProperties": false
}`)

func (w *writeTool) Spec() tool.Spec {
	return tool.Spec{
		RuntimeName: "write",
		Source:      Source,
		Description: "Write a file with the given content, creating missing parent directories and replacing the file " +
			"if it exists (atomically: readers see the old or the new content, never a mix). " +
			"To change part of an existing file, prefer edit.",
		InputSchema: writeSchema,
	}
}

func (w *writeTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	var in struct {
		Path    *string `json:"path"`
		Content *string `json:"content"`
	}
	if err := decode(input, &in); err != nil {
		return fail("%v", err), nil
	}
	if in.Path == nil || *in.Path == "" {
		return fail("path is required"), nil
	}
	if in.Content == nil {
		return fail("content is required (use \"\" for an empty file)"), nil
	}
	if err := ctx.Err(); err != nil {
		return tool.Result{}, err
	}
	name := *in.Path
	p := w.o.resolve(name)
	mode := fs.FileMode(0o644)
	verb := "created"
	// before is the file's text when it existed and was text: what the
	// diff shows the write changed.
	var before *string
	if fi, err := os.Stat(p); err == nil {
		if fi.IsDir() {
			return fail("%s is a directory; give the path of a file inside it", name), nil
		}
		mode = fi.Mode().Perm()
		verb = "overwrote"
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real // replace the link's target, not the link
		}
		if fi.Mode().IsRegular() && fi.Size() <= maxDiffedFile {
			if old, err := os.ReadFile(p); err == nil && !isBinary(old) {
				s := string(old)
				if w.o.Files != nil {
					if t, err := w.o.Files.ReadText(ctx, p); err == nil {
						s = t // the editor's text is what the write replaces
					}
				}
				before = &s
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fsError(name, err), nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fail("cannot create the parent directory of %s: %v", name, unwrapPathError(err)), nil
	}
	if w.o.Files != nil {
		if err := w.o.Files.WriteText(ctx, p, *in.Content); err != nil {
			return fail("%s: the editor could not write it: %v", name, err), nil
		}
	} else if err := writeFileAtomic(p, []byte(*in.Content), mode); err != nil {
		return fsError(name, err), nil
	}
	res := tool.Result{Output: verb + " " + name + " (" + plural.Count(len(*in.Content), "byte") + " written)", Before: before}
	switch {
	case verb == "created":
		res.Diff = tool.NewFileDiff(name, *in.Content)
	case before != nil && !isBinary([]byte(*in.Content)):
		res.Diff = tool.NewDiff(name, *before, *in.Content)
	}
	return res, nil
}

// maxDiffedFile is the largest file whose old content write reads to
// show a diff; a bigger one is replaced without one.
const maxDiffedFile = 8 << 20

// writeFileAtomic writes data to a temporary file in path's directory and
// renames it over path, so a reader never sees a half-written file. The
// file gets mode (permission bits).
func writeFileAtomic(path string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".synaps-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	return nil
}
