package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/synaps-cli/synaps/internal/tool"
)

// findMaxResults is how many paths find lists.
const findMaxResults = 1000

// findTool lists paths matching a glob.
type findTool struct {
	o   Options
	max int // most paths listed
}

var findSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"pattern": {"type": "string", "description": "Glob matched against paths relative to path: * matches within a name, ** across directories, e.g. \"**/*.go\", \"cmd/*/main.go\", \"**/*_{test,bench}.go\"."},
		"path":    {"type": "string", "description": "Directory to search. Default: the working directory."}
	},
	"required": ["pattern"],
	"additionalProperties": false
}`)

func (f *findTool) Spec() tool.Spec {
	return tool.Spec{
		RuntimeName: "find",
		ReadOnly:    true,
		Source:      Source,
		Description: "Find files and directories by glob pattern (e.g. \"**/*.go\"; \"*.go\" matches only the top level). " +
			"Lists matching paths relative to the search directory, sorted, directories with a trailing '/'. " +
			"Skips files ignored by .gitignore and the .git directory. At most 1000 paths are listed.",
		InputSchema: findSchema,
	}
}

func (f *findTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	var in struct {
		Pattern *string `json:"pattern"`
		Path    string  `json:"path"`
	}
	if err := decode(input, &in); err != nil {
		return fail("%v", err), nil
	}
	if in.Pattern == nil || *in.Pattern == "" {
		return fail("pattern is required"), nil
	}
	pattern := strings.TrimPrefix(*in.Pattern, "./")
	if filepath.IsAbs(pattern) {
		return fail("pattern is matched against paths relative to the search directory: pass the directory as path and a relative pattern such as \"**/*.go\""), nil
	}
	if !doublestar.ValidatePattern(pattern) {
		return fail("invalid glob pattern %q", pattern), nil
	}
	name := in.Path
	if name == "" {
		name = "."
	}
	root := f.o.resolve(name)
	fi, err := os.Stat(root)
	if err != nil {
		return fsError(name, err), nil
	}
	if !fi.IsDir() {
		return fail("%s is not a directory", name), nil
	}

	// Only directories on the way to the pattern's literal prefix can hold a match.
	base, _ := doublestar.SplitPattern(pattern)
	var out strings.Builder
	listed, total := 0, 0
	full := false
	w := newWalker(root)
	w.denied = newTally(f.o.Gate)
	err = w.walk(ctx, func(rel string, d fs.DirEntry) error {
		if d.IsDir() && base != "." && !strings.HasPrefix(base+"/", rel+"/") && !strings.HasPrefix(rel, base+"/") {
			return fs.SkipDir
		}
		if ok, _ := doublestar.Match(pattern, rel); !ok {
			return nil
		}
		total++
		if listed == f.max || full {
			return nil
		}
		entry := rel
		if d.IsDir() {
			entry += "/"
		}
		if listed > 0 && out.Len()+len(entry)+1 > f.o.MaxOutput {
			full = true
			return nil
		}
		out.WriteString(entry)
		out.WriteByte('\n')
		listed++
		return nil
	})
	if err != nil {
		return tool.Result{}, err
	}
	denied := w.denied.note("path")
	if total == 0 {
		out := fmt.Sprintf("no paths match %q in %s", pattern, name)
		if denied != "" {
			out += "\n" + denied
		}
		return tool.Result{Output: out}, nil
	}
	if listed < total {
		fmt.Fprintf(&out, "… and %d more (%d of %d listed); narrow the pattern or path", total-listed, listed, total)
		if denied != "" {
			out.WriteByte('\n')
		}
	}
	out.WriteString(denied)
	return tool.Result{Output: out.String()}, nil
}
