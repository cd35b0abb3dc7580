package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/tool"
)

const (
	// grepDefaultMax is how many matching lines grep returns by default.
	grepDefaultMax = 200
	// grepMaxFileSize is the largest file grep searches, in bytes.
	grepMaxFileSize = 5 << 20
	// grepMaxLineLen is where grep cuts a matching line, in bytes.
	grepMaxLineLen = 500
)

// grepTool searches file contents with a regular expression.
type grepTool struct{ o Options }

var grepSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"pattern":     {"type": "string", "description": "Regular expression (Go RE2 syntax), matched against each line."},
		"path":        {"type": "string", "description": "File or directory to search. Default: the working directory."},
		"glob":        {"type": "string", "description": "Only search files matching this glob, e.g. \"*.go\" (matched against the file name) or \"src/**/*.ts\" (matched against the path relative to path)."},
		"ignore_case": {"type": "boolean", "description": "Match case-insensitively. Default false."},
		"max_matches": {"type": "integer", "minimum": 1, "description": "Most matching lines to return. Default 200."}
	},
	"required": ["pattern"],
	"additionalProperties": false
}`)

func (g *grepTool) Spec() tool.Spec {
	return tool.Spec{
		RuntimeName: "grep",
		ReadOnly:    true,
		Source:      Source,
		Description: "Search file contents with a regular expression (Go RE2 syntax: no lookaround or backreferences). " +
			"Returns matching lines as path:line:text, sorted by path and line. Directories are searched recursively, " +
			"skipping files ignored by .gitignore, the .git directory, binary files and files over 5 MiB. " +
			"Narrow the search with path and glob.",
		InputSchema: grepSchema,
	}
}

func (g *grepTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	var in struct {
		Pattern    *string  `json:"pattern"`
		Path       string   `json:"path"`
		Glob       string   `json:"glob"`
		IgnoreCase bool     `json:"ignore_case"`
		MaxMatches *float64 `json:"max_matches"`
	}
	if err := decode(input, &in); err != nil {
		return fail("%v", err), nil
	}
	if in.Pattern == nil || *in.Pattern == "" {
		return fail("pattern is required"), nil
	}
	expr := *in.Pattern
	if in.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return fail("invalid regular expression: %v (Go RE2 syntax: lookaround and backreferences are not supported; "+
			"escape literal ( ) [ ] { } . * + ? | ^ $ \\ with a backslash)", err), nil
	}
	// A file whose whole content does not match in multi-line mode has no
	// matching line, so most files are rejected in one pass. Patterns that
	// depend on whole-text anchors are matched line by line only.
	var pre *regexp.Regexp
	if !strings.Contains(expr, `\A`) && !strings.Contains(expr, `\z`) && !strings.Contains(expr, "-m") {
		pre, _ = regexp.Compile("(?m)" + expr)
	}
	if in.Glob != "" && !doublestar.ValidatePattern(in.Glob) {
		return fail("invalid glob %q", in.Glob), nil
	}
	max := grepDefaultMax
	if in.MaxMatches != nil {
		if *in.MaxMatches < 1 {
			return fail("max_matches must be at least 1"), nil
		}
		max = int(*in.MaxMatches)
	}
	name := in.Path
	if name == "" {
		name = "."
	}
	root := g.o.resolve(name)
	fi, err := os.Stat(root)
	if err != nil {
		return fsError(name, err), nil
	}

	s := &grepSearch{re: re, pre: pre, max: max, maxOutput: g.o.MaxOutput}
	var denied string // what the gate kept from a directory search
	if !fi.IsDir() {
		if !fi.Mode().IsRegular() {
			return fail("%s is not a regular file", name), nil
		}
		if err := s.file(ctx, root, name, fi.Size()); err != nil && err != errStop {
			return tool.Result{}, err
		}
	} else {
		w := newWalker(root)
		w.denied = newTally(g.o.Gate)
		err := w.walk(ctx, func(rel string, d fs.DirEntry) error {
			if !d.Type().IsRegular() {
				return nil
			}
			if in.Glob != "" && !globMatch(in.Glob, rel) {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			return s.file(ctx, filepath.Join(root, filepath.FromSlash(rel)), rel, info.Size())
		})
		if err != nil {
			return tool.Result{}, err
		}
		denied = w.denied.note("file")
	}

	out := s.out.String()
	var notes []string
	if denied != "" {
		notes = append(notes, denied)
	}
	switch {
	case s.full:
		notes = append(notes, fmt.Sprintf("[output limit reached after %s; narrow the pattern, path or glob]", plural.Count(s.matches, "match")))
	case s.more:
		notes = append(notes, fmt.Sprintf("[stopped after %s; more exist: narrow the pattern, path or glob, or raise max_matches]", plural.Count(s.matches, "match")))
	}
	if s.tooLarge > 0 {
		notes = append(notes, fmt.Sprintf("[skipped %s over %s: search them with bash]", plural.Count(s.tooLarge, "file"), formatSize(grepMaxFileSize)))
	}
	if s.matches == 0 {
		out = fmt.Sprintf("no matches for %q in %s", *in.Pattern, name)
		if len(notes) > 0 {
			out += "\n"
		}
	}
	return tool.Result{Output: out + strings.Join(notes, "\n")}, nil
}

// grepSearch collects the matches of one grep call.
type grepSearch struct {
	re, pre   *regexp.Regexp
	max       int
	maxOutput int

	out      strings.Builder
	matches  int
	more     bool // stopped at max
	full     bool // stopped at maxOutput
	tooLarge int  // files skipped for their size
}

// file searches one file, returning errStop once the search is full.
func (s *grepSearch) file(ctx context.Context, abs, rel string, size int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if size > grepMaxFileSize {
		s.tooLarge++
		return nil
	}
	data, err := os.ReadFile(abs)
	if err != nil || isBinary(data) {
		return nil
	}
	if s.pre != nil && !s.pre.Match(data) {
		return nil
	}
	for lineNo := 1; len(data) > 0; lineNo++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if !s.re.Match(line) {
			continue
		}
		if s.matches == s.max {
			s.more = true
			return errStop
		}
		text := cutLine(string(bytes.TrimSuffix(line, []byte("\r"))), grepMaxLineLen)
		entry := rel + ":" + strconv.Itoa(lineNo) + ":" + text + "\n"
		if s.matches > 0 && s.out.Len()+len(entry) > s.maxOutput {
			s.full = true
			return errStop
		}
		s.out.WriteString(entry)
		s.matches++
	}
	return nil
}

// globMatch matches a glob without a slash against the file name, and any
// other glob against the whole relative path.
func globMatch(glob, rel string) bool {
	if !strings.Contains(glob, "/") {
		rel = path.Base(rel)
	}
	ok, _ := doublestar.Match(glob, rel)
	return ok
}
