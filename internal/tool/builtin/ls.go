package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/safefile"
	"github.com/synaps-cli/synaps/internal/tool"
)

// lsMaxEntries is how many entries ls lists.
const lsMaxEntries = 1000

// lsTool lists one directory.
type lsTool struct {
	o   Options
	max int // most entries listed
}

var lsSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"path": {"type": "string", "description": "Directory to list. Default: the working directory."}
	},
	"additionalProperties": false
}`)

func (l *lsTool) Spec() tool.Spec {
	return tool.Spec{
		RuntimeName: "ls",
		ReadOnly:    true,
		Source:      Source,
		Description: "List a directory: one entry per line, directories first (with a trailing '/'), then files with their sizes; " +
			"hidden entries included, .gitignore not applied. Symbolic links show their target. " +
			"Use find to search a tree by name.",
		InputSchema: lsSchema,
	}
}

func (l *lsTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	var in struct {
		Path string `json:"path"`
	}
	if err := decode(input, &in); err != nil {
		return fail("%v", err), nil
	}
	if err := ctx.Err(); err != nil {
		return tool.Result{}, err
	}
	name := in.Path
	if name == "" {
		name = "."
	}
	p := l.o.resolve(name)
	fi, err := os.Stat(p)
	if err != nil {
		return fsError(name, err), nil
	}
	if !fi.IsDir() {
		return tool.Result{Output: fmt.Sprintf("%s (%s)\n", filepath.Base(p), formatSize(fi.Size()))}, nil
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return fsError(name, err), nil
	}
	if len(entries) == 0 {
		return tool.Result{Output: "(empty directory)"}, nil
	}
	var dirs, files []string
	denied := newTally(l.o.Gate)
	for _, e := range entries {
		if !denied.check(filepath.Join(p, e.Name()), e.Name(), e) {
			continue
		}
		line, isDir := lsEntry(p, e)
		if isDir {
			dirs = append(dirs, line)
		} else {
			files = append(files, line)
		}
	}
	var out strings.Builder
	listed := 0
	for _, line := range append(dirs, files...) {
		if listed == l.max || listed > 0 && out.Len()+len(line)+1 > l.o.MaxOutput {
			break
		}
		out.WriteString(line)
		out.WriteByte('\n')
		listed++
	}
	if n := len(entries) - denied.n; listed < n {
		fmt.Fprintf(&out, "… and %d more entries (%d of %d listed); use find or bash to narrow the listing", n-listed, listed, n)
		if denied.n > 0 {
			out.WriteByte('\n')
		}
	}
	out.WriteString(denied.note("entry"))
	return tool.Result{Output: out.String()}, nil
}

// lsEntry renders one entry: "name/" for a directory, "name (size)" for a
// file, "name -> target" for a symbolic link (a "/" after name when it
// points at a directory).
func lsEntry(dir string, e fs.DirEntry) (line string, isDir bool) {
	name := e.Name()
	switch {
	case e.IsDir():
		return name + "/", true
	case e.Type()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(filepath.Join(dir, name))
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && fi.IsDir() {
			return name + "/ -> " + target, true
		}
		return name + " -> " + target, false
	}
	info, err := e.Info()
	if err != nil {
		return name, false
	}
	if !info.Mode().IsRegular() {
		return fmt.Sprintf("%s (%s)", name, strings.ToLower(safefile.Kind(info.Mode()))), false
	}
	return fmt.Sprintf("%s (%s)", name, formatSize(info.Size())), false
}
