package claude

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/tool"
)

// Tool names and inputs, both ways. Claude's hooks match and read its own
// tool names (Bash, Read, Write, Edit, Glob, Grep, LS, TodoWrite, WebFetch,
// WebSearch) and input shapes
// (file_path, timeout in ms …); synaps's built-ins have their own. A hook
// sees Claude's, and an updatedInput it returns comes back to synaps's.
// Tools with no Claude twin (extension tools, mcp__ tools) keep their
// name and input both ways.

// The names themselves are permission's table (permission/claudetools.go),
// which Claude permission rules read too.

// ClaudeName is the name a Claude hook knows the tool by.
func ClaudeName(synapsName string) string {
	if n, ok := permission.ClaudeToolName(synapsName); ok {
		return n
	}
	return synapsName
}

// SynapsName is the synaps tool a Claude tool name stands for.
func SynapsName(claudeName string) string {
	if n, ok := permission.SynapsToolName(claudeName); ok {
		return n
	}
	return claudeName
}

// renames pairs synaps input fields with Claude's, per tool.
var renames = map[string][][2]string{
	"read":  {{"path", "file_path"}},
	"write": {{"path", "file_path"}},
	"edit":  {{"path", "file_path"}},
	"grep":  {{"ignore_case", "-i"}},
}

// ToClaudeInput is a synaps tool's input as Claude's tool takes it: field
// names renamed, paths absolute against cwd (Claude's are), bash's
// timeout in milliseconds. Fields Claude's tool does not have are kept:
// a hook ignores what it does not read.
func ToClaudeInput(synapsName string, input json.RawMessage, cwd string) json.RawMessage {
	obj, ok := object(input)
	if !ok {
		return input
	}
	for _, r := range renames[synapsName] {
		if v, ok := obj[r[0]]; ok && r[0] != r[1] {
			obj[r[1]] = v
			delete(obj, r[0])
		}
	}
	switch synapsName {
	case "read", "write", "edit":
		absolute(obj, "file_path", cwd)
	case "find", "grep", "ls":
		if _, ok := obj["path"]; ok {
			absolute(obj, "path", cwd)
		}
		if synapsName == "grep" {
			// synaps's grep lists matching lines: Claude's Grep in
			// content mode.
			obj["output_mode"] = "content"
		}
	case "bash":
		if t, ok := obj["timeout"].(float64); ok {
			obj["timeout"] = t * 1000
		}
	}
	return marshal(obj, input)
}

// FromClaudeInput is a Claude-shaped input (a hook's updatedInput) as the
// synaps tool takes it: the reverse of ToClaudeInput, with bash's
// timeout rounded up to whole seconds and Claude-only fields dropped.
func FromClaudeInput(synapsName string, input json.RawMessage) json.RawMessage {
	obj, ok := object(input)
	if !ok {
		return input
	}
	for _, r := range renames[synapsName] {
		if v, ok := obj[r[1]]; ok && r[0] != r[1] {
			obj[r[0]] = v
			delete(obj, r[1])
		}
	}
	switch synapsName {
	case "bash":
		if t, ok := obj["timeout"].(float64); ok {
			obj["timeout"] = math.Ceil(t / 1000)
		}
		delete(obj, "description")
		delete(obj, "run_in_background")
	case "grep":
		for _, k := range []string{"output_mode", "type", "-n", "-A", "-B", "-C", "head_limit", "multiline"} {
			delete(obj, k)
		}
	}
	return marshal(obj, input)
}

func object(input json.RawMessage) (map[string]any, bool) {
	var obj map[string]any
	if err := json.Unmarshal(input, &obj); err != nil || obj == nil {
		return nil, false
	}
	return obj, true
}

func marshal(obj map[string]any, fallback json.RawMessage) json.RawMessage {
	b, err := json.Marshal(obj)
	if err != nil {
		return fallback
	}
	return b
}

func absolute(obj map[string]any, key, cwd string) {
	p, ok := obj[key].(string)
	if !ok || p == "" || filepath.IsAbs(p) || cwd == "" {
		return
	}
	obj[key] = filepath.Join(cwd, p)
}

// ToolResponse is what a PostToolUse hook reads as tool_response: the
// shape Claude's tool of that name reports, built from what synaps's tool
// returned. Output is the tool's text; original is the file's content
// before an edit or write ("" and !existed for a new file). Tools without
// a Claude twin report their output as a string.
func ToolResponse(synapsName string, claudeInput json.RawMessage, output string, original *string, patch []Hunk) any {
	in, _ := object(claudeInput)
	str := func(k string) string { s, _ := in[k].(string); return s }
	switch synapsName {
	case "bash":
		return map[string]any{"stdout": strings.TrimRight(output, "\n"), "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false}
	case "read":
		content := unnumber(output)
		n := strings.Count(content, "\n") + 1
		start := 1
		if o, ok := in["offset"].(float64); ok && o >= 1 {
			start = int(o)
		}
		return map[string]any{"type": "text", "file": map[string]any{"filePath": str("file_path"), "content": content, "numLines": n, "startLine": start, "totalLines": start - 1 + n}}
	case "write":
		typ := "update"
		var orig any
		if original == nil {
			typ = "create"
		} else {
			orig = *original
		}
		return map[string]any{"type": typ, "filePath": str("file_path"), "content": str("content"), "structuredPatch": hunks(patch), "originalFile": orig, "userModified": false}
	case "edit":
		var orig any
		if original != nil {
			orig = *original
		}
		all, _ := in["replace_all"].(bool)
		return map[string]any{"filePath": str("file_path"), "oldString": str("old_string"), "newString": str("new_string"), "originalFile": orig, "structuredPatch": hunks(patch), "userModified": false, "replaceAll": all}
	case "find":
		names := lines(output)
		return map[string]any{"filenames": names, "durationMs": 0, "numFiles": len(names), "truncated": false, "totalMatches": len(names), "countIsComplete": true}
	case "grep":
		// synaps's grep lists matching lines (file:line:text); Claude's
		// reports them by its output_mode, files by default.
		ls := lines(output)
		mode := str("output_mode")
		if mode == "" {
			mode = "files_with_matches"
		}
		if mode != "files_with_matches" {
			return map[string]any{"mode": mode, "numFiles": 0, "filenames": []string{}, "content": strings.Join(ls, "\n"), "numLines": len(ls)}
		}
		files := map[string]bool{}
		names := []string{}
		for _, l := range ls {
			if f, _, ok := strings.Cut(l, ":"); ok && !files[f] {
				files[f] = true
				names = append(names, f)
			}
		}
		return map[string]any{"mode": mode, "numFiles": len(names), "filenames": names, "content": "", "numLines": 0}
	}
	return output
}

// Hunk is one hunk of a structured patch, as Claude reports edits.
type Hunk struct {
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
}

func hunks(h []Hunk) []Hunk {
	if h == nil {
		return []Hunk{}
	}
	return h
}

// unnumber is the file text in a read tool's output: the lines without
// their `cat -n` numbers, and without the notes after them (where to
// continue, what was cut).
func unnumber(out string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(out, "\n") {
		t := strings.TrimLeft(l, " ")
		i := strings.IndexByte(t, '\t')
		if i <= 0 || strings.TrimLeft(t[:i], "0123456789") != "" {
			continue
		}
		b.WriteString(t[i+1:])
	}
	return b.String()
}

func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return []string{}
	}
	return strings.Split(s, "\n")
}

// PatchFromDiff is the structured patch Claude reports for an edit or a
// write, from the diff synaps's tool made: one hunk per run of changes
// with its context lines, lines prefixed " ", "-" or "+". A created file
// has none (Claude reports its content instead).
func PatchFromDiff(d *tool.Diff) []Hunk {
	if d == nil || d.Created || d.TooLarge {
		return []Hunk{}
	}
	var out []Hunk
	var h *Hunk
	flush := func() {
		if h != nil && len(h.Lines) > 0 {
			out = append(out, *h)
		}
		h = nil
	}
	for _, l := range d.Lines {
		if l.Kind == "…" {
			flush()
			continue
		}
		if h == nil {
			h = &Hunk{OldStart: l.Old, NewStart: l.New}
		}
		if h.OldStart == 0 && l.Old > 0 {
			h.OldStart = l.Old - h.OldLines
		}
		if h.NewStart == 0 && l.New > 0 {
			h.NewStart = l.New - h.NewLines
		}
		switch l.Kind {
		case " ":
			h.OldLines++
			h.NewLines++
		case "-":
			h.OldLines++
		case "+":
			h.NewLines++
		}
		h.Lines = append(h.Lines, l.Kind+l.Text)
	}
	flush()
	if out == nil {
		return []Hunk{}
	}
	return out
}

// ErrorText is a failed tool's error as Claude words it for
// PostToolUseFailure: a shell's "exit status 1" is "Exit code 1";
// anything else is the tool's first line.
func ErrorText(output string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(output), "\n")
	if n, ok := strings.CutPrefix(first, "exit status "); ok {
		return "Exit code " + n
	}
	return first
}
