package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/tool"
)

// editTool replaces exact text in a file.
type editTool struct{ o Options }

var editSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"path":        {"type": "string", "description": "File to edit, relative to the working directory or absolute."},
		"old_string":  {"type": "string", "description": "The exact text to replace, including whitespace and indentation. Must occur exactly once unless replace_all is true."},
		"new_string":  {"type": "string", "description": "The text to put in its place."},
		"replace_all": {"type": "boolean", "description": "Replace every occurrence of old_string. Default false."}
	},
	"required": ["path", "old_string", "new_string"],
	"additionalProperties": false
}`)

func (e *editTool) Spec() tool.Spec {
	return tool.Spec{
		RuntimeName: "edit",
		Source:      Source,
		Description: "Replace exact text in an existing file. old_string must match the file byte for byte " +
			"(whitespace and indentation included, without read's line-number prefixes) and occur exactly once, " +
			"unless replace_all is true; include a few surrounding lines to make it unique. " +
			"Read the file before editing it. The file's permissions are kept.",
		InputSchema: editSchema,
	}
}

// maxListedLines is how many line numbers an edit message lists.
const maxListedLines = 20

func (e *editTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	var in struct {
		Path       *string `json:"path"`
		OldString  *string `json:"old_string"`
		NewString  *string `json:"new_string"`
		ReplaceAll bool    `json:"replace_all"`
	}
	if err := decode(input, &in); err != nil {
		return fail("%v", err), nil
	}
	switch {
	case in.Path == nil || *in.Path == "":
		return fail("path is required"), nil
	case in.OldString == nil || *in.OldString == "":
		return fail("old_string is required and must not be empty; to create a file or replace all of it, use write"), nil
	case in.NewString == nil:
		return fail("new_string is required (use \"\" to delete old_string)"), nil
	case *in.OldString == *in.NewString:
		return fail("old_string and new_string are identical; there is nothing to change"), nil
	}
	if err := ctx.Err(); err != nil {
		return tool.Result{}, err
	}
	name := *in.Path
	p := e.o.resolve(name)
	fi, err := os.Stat(p)
	if err != nil {
		if os.IsNotExist(err) {
			return fail("%s: no such file; to create a file, use write", name), nil
		}
		return fsError(name, err), nil
	}
	if fi.IsDir() {
		return fail("%s is a directory, not a file", name), nil
	}
	if !fi.Mode().IsRegular() {
		return fail("%s is not a regular file", name), nil
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return fsError(name, err), nil
	}
	if isBinary(data) {
		return fail("%s looks like a binary file (it contains NUL bytes); edit only changes text files", name), nil
	}
	content := string(data)
	if e.o.Files != nil {
		// Edit what the editor has, unsaved changes included.
		if content, err = e.o.Files.ReadText(ctx, p); err != nil {
			return fail("%s: the editor could not read it: %v", name, err), nil
		}
	}
	oldS, newS, count := matchEdit(content, *in.OldString, *in.NewString)
	if count == 0 {
		if line, ok := looseMatch(content, oldS); ok {
			return fail("old_string was not found in %s exactly, but text matching it when whitespace is ignored starts at line %d: "+
				"the indentation, spacing or line breaks differ. Read the file (offset=%d) and copy the text exactly.",
				name, line, max(1, line-2)), nil
		}
		return fail("old_string was not found in %s. Read the file first and copy the exact text, including whitespace and indentation "+
			"(without read's line-number prefixes).", name), nil
	}
	lines := matchLines(content, oldS)
	if count > 1 && !in.ReplaceAll {
		return fail("old_string occurs %d times in %s (%s); include more surrounding lines to make it unique, "+
			"or set replace_all to true to replace every occurrence", count, name, listLines(lines)), nil
	}
	n := 1
	if in.ReplaceAll {
		n = -1
	}
	updated := strings.Replace(content, oldS, newS, n)
	if e.o.Files != nil {
		if err := e.o.Files.WriteText(ctx, p, updated); err != nil {
			return fail("%s: the editor could not write it: %v", name, err), nil
		}
	} else if err := writeFileAtomic(p, []byte(updated), fi.Mode().Perm()); err != nil {
		return fsError(name, err), nil
	}
	return tool.Result{
		Output: fmt.Sprintf("edited %s: replaced %s (%s)", name, plural.Count(count, "occurrence"), listLines(lines)),
		Diff:   tool.NewDiff(name, content, updated),
		Before: &content,
	}, nil
}

// matchEdit counts old's occurrences in content. When there are none
// and the file has CRLF line endings (read shows lines without "\r"), it
// tries old and new with CRLF endings, and returns those when they match.
func matchEdit(content, oldS, newS string) (string, string, int) {
	count := strings.Count(content, oldS)
	if count == 0 && strings.Contains(oldS, "\n") && !strings.Contains(oldS, "\r\n") && strings.Contains(content, "\r\n") {
		crlfOld := strings.ReplaceAll(oldS, "\n", "\r\n")
		if c := strings.Count(content, crlfOld); c > 0 {
			return crlfOld, strings.ReplaceAll(newS, "\n", "\r\n"), c
		}
	}
	return oldS, newS, count
}

// matchLines returns the distinct 1-based line numbers where sub starts
// in s (non-overlapping occurrences, as strings.Replace finds them).
func matchLines(s, sub string) []int {
	var lines []int
	line, pos := 1, 0
	for {
		i := strings.Index(s[pos:], sub)
		if i < 0 {
			return lines
		}
		line += strings.Count(s[pos:pos+i], "\n")
		if len(lines) == 0 || lines[len(lines)-1] != line {
			lines = append(lines, line)
		}
		line += strings.Count(sub, "\n")
		pos += i + len(sub)
	}
}

// listLines renders "line 3" or "lines 3, 10, 22", capped.
func listLines(lines []int) string {
	word := "lines "
	if len(lines) == 1 {
		word = "line "
	}
	parts := make([]string, 0, min(len(lines), maxListedLines)+1)
	for i, l := range lines {
		if i == maxListedLines {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, strconv.Itoa(l))
	}
	return word + strings.Join(parts, ", ")
}

// looseMatch looks for sub in s with every run of whitespace treated as one
// space and sub's leading and trailing whitespace ignored. It returns the
// line in s where such a match starts.
func looseMatch(s, sub string) (line int, ok bool) {
	nsub, _ := collapseSpace(strings.TrimSpace(sub))
	if nsub == "" {
		return 0, false
	}
	ns, segs := collapseSpace(s)
	i := strings.Index(ns, nsub)
	if i < 0 {
		return 0, false
	}
	// The last segment starting at or before i maps i back into s.
	k := sort.Search(len(segs), func(k int) bool { return segs[k].norm > i }) - 1
	orig := segs[k].orig + (i - segs[k].norm)
	return 1 + strings.Count(s[:orig], "\n"), true
}

// span maps a position in collapsed text back to the original.
type span struct{ norm, orig int }

// collapseSpace replaces each run of ASCII whitespace in s with one space,
// returning the result and the start of every run it copied.
func collapseSpace(s string) (string, []span) {
	var b strings.Builder
	b.Grow(len(s))
	var segs []span
	for i := 0; i < len(s); {
		j := i
		if isSpace(s[i]) {
			for j < len(s) && isSpace(s[j]) {
				j++
			}
			segs = append(segs, span{b.Len(), i})
			b.WriteByte(' ')
		} else {
			for j < len(s) && !isSpace(s[j]) {
				j++
			}
			segs = append(segs, span{b.Len(), i})
			b.WriteString(s[i:j])
		}
		i = j
	}
	return b.String(), segs
}

func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}
