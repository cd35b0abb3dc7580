// Package permission decides whether a tool call may run without asking
// the user: the permission mode (Claude Code's default, acceptEdits, plan,
// bypassPermissions) and allow/ask/deny rules written in Claude Code's
// syntax (`Bash(git status:*)`, `Edit(docs/**)`, `mcp__server__tool`).
//
// It judges a call after the extensions' before_tool_call chain: a guard's
// block never reaches it, so a block wins over every rule and mode. What it
// answers is Allow, Ask or Deny; the agent asks the user (or, with nobody
// to ask, refuses) and saves an "always" answer as an allow rule.
package permission

import (
	"fmt"
	"strings"
)

// Rule is one permission rule: a tool, and for the tools that take one, a
// specifier saying which of its calls (a command prefix, a path pattern).
type Rule struct {
	// Tool is the tool name as written: a Claude Code name (Bash, Read,
	// Edit, Write, Glob, Grep, LS, MultiEdit), a synaps name (bash, read,
	// write, edit, grep, find, ls), an extension tool's model-facing or
	// runtime name, or an MCP name (mcp__server, mcp__server__tool). A
	// trailing * matches any rest of the name.
	Tool string
	// Spec is what is inside the parentheses ("" when there are none, or
	// for "(*)", which means the same as no parentheses).
	Spec string
	// Text is the rule as written, for messages.
	Text string
	// Source says where the rule came from ("--allowedTools", "<file>
	// permissions.deny"), for messages; "" when unknown.
	Source string
}

// String is the rule as written.
func (r Rule) String() string { return r.Text }

// ParseRule reads one rule. The error says what is wrong and shows a
// well-formed rule.
func ParseRule(s string) (Rule, error) {
	text := strings.TrimSpace(s)
	if text == "" {
		return Rule{}, fmt.Errorf("empty rule; write a tool name, e.g. Bash(git status:*), Edit(docs/**) or mcp__server__tool")
	}
	name, spec, hasSpec := text, "", false
	if i := strings.IndexByte(text, '('); i >= 0 {
		if !strings.HasSuffix(text, ")") {
			return Rule{}, fmt.Errorf("rule %q has a ( without a closing ) at its end; write it as Tool(specifier), e.g. Bash(git status:*)", text)
		}
		name, spec, hasSpec = strings.TrimSpace(text[:i]), strings.TrimSpace(text[i+1:len(text)-1]), true
	} else if strings.ContainsRune(text, ')') {
		return Rule{}, fmt.Errorf("rule %q has a ) without a (; write it as Tool(specifier), e.g. Bash(git status:*)", text)
	}
	if name == "" {
		return Rule{}, fmt.Errorf("rule %q names no tool; write the tool before the parentheses, e.g. Bash(%s)", text, spec)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_-:.*", c)) {
			return Rule{}, fmt.Errorf("rule %q: %q is not a tool name (letters, digits, _ - : . and a trailing *); e.g. Bash(git status:*) or mcp__server__tool", text, name)
		}
	}
	if i := strings.IndexByte(name, '*'); i >= 0 && i != len(name)-1 {
		return Rule{}, fmt.Errorf("rule %q: * may only end a tool name (mcp__server__*)", text)
	}
	if hasSpec && spec == "" {
		return Rule{}, fmt.Errorf("rule %q has empty parentheses; leave them out to mean every call (%s), or say which, e.g. Bash(git status:*)", text, name)
	}
	if spec == "*" {
		spec = ""
	}
	if spec != "" {
		switch kindOf(name) {
		case kindBash, kindRead, kindEdit:
		case kindOther:
			if isClaudeOnly(name) {
				break // NotebookEdit(…) and the like: no synaps tool, never matches
			}
			if isWebFetch(name) {
				if _, ok := strings.CutPrefix(spec, "domain:"); ok {
					break // WebFetch(domain:example.com): webfetch.go
				}
				return Rule{}, fmt.Errorf("rule %q: WebFetch takes domain:HOST in parentheses, e.g. WebFetch(domain:example.com)", text)
			}
			return Rule{}, fmt.Errorf("rule %q: only Bash, Read, Edit, Write (and their synaps names) take a specifier in parentheses; write %s alone to mean every call of it", text, name)
		}
	}
	return Rule{Tool: name, Spec: spec, Text: text}, nil
}

// ParseRules reads a list of rules: items separated by commas or
// whitespace outside parentheses (`Bash(git log:*), Edit` or
// `Bash(git log:*) Edit`), as config lists and Claude's --allowedTools
// flag write them.
func ParseRules(list string) ([]Rule, error) {
	var out []Rule
	for _, item := range SplitRules(list) {
		r, err := ParseRule(item)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// SplitRules splits a list of rules at commas and whitespace that are not
// inside parentheses. Brackets around the whole list and quotes around an
// item (`["Bash(ls)", "Edit"]`) are dropped.
func SplitRules(list string) []string {
	list = strings.TrimSpace(list)
	if strings.HasPrefix(list, "[") && strings.HasSuffix(list, "]") {
		list = list[1 : len(list)-1]
	}
	var out []string
	var cur strings.Builder
	depth := 0
	flush := func() {
		item := strings.TrimSpace(cur.String())
		cur.Reset()
		if len(item) >= 2 && (item[0] == '"' || item[0] == '\'') && item[len(item)-1] == item[0] {
			item = item[1 : len(item)-1]
		}
		if item != "" {
			out = append(out, item)
		}
	}
	for _, c := range list {
		switch {
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n'):
			flush()
			continue
		}
		cur.WriteRune(c)
	}
	flush()
	return out
}

// kind is the family of tools a rule name or a call belongs to.
type kind int

const (
	kindOther kind = iota
	kindBash       // Bash, bash: the specifier is a command pattern
	kindRead       // Read, Grep, Glob, LS and their synaps names: a path pattern
	kindEdit       // Edit, Write, MultiEdit, edit, write: a path pattern
)

// claudeOnly are Claude Code tools synaps does not have: rules naming them
// are accepted (a shared settings file keeps working) and match nothing.
var claudeOnly = []string{"NotebookEdit", "NotebookRead", "Task", "Agent", "BashOutput", "KillShell", "SlashCommand"}

func isClaudeOnly(name string) bool {
	for _, n := range claudeOnly {
		if n == name {
			return true
		}
	}
	return false
}

func kindOf(name string) kind {
	switch name {
	case "Bash", "bash":
		return kindBash
	case "Read", "Grep", "Glob", "LS", "read", "grep", "find", "ls":
		return kindRead
	case "Edit", "Write", "MultiEdit", "edit", "write":
		return kindEdit
	}
	return kindOther
}

// matchesTool reports whether the rule's tool part names the call's tool.
func (r Rule) matchesTool(c Call) bool {
	if builtins, ok := claudeNames()[r.Tool]; ok {
		if !c.Builtin {
			return false
		}
		for _, b := range builtins {
			if b == c.Name {
				return true
			}
		}
		return false
	}
	if c.Builtin {
		return r.Tool == c.Name
	}
	if c.MCPServer != "" && strings.HasPrefix(r.Tool, "mcp__") {
		return mcpRuleMatches(r.Tool, c.MCPServer, c.Name)
	}
	names := []string{c.Name, c.RuntimeName}
	for _, n := range names {
		if n == "" {
			continue
		}
		if p, ok := strings.CutSuffix(r.Tool, "*"); ok {
			if strings.HasPrefix(n, p) {
				return true
			}
			continue
		}
		if n == r.Tool {
			return true
		}
		// mcp__server covers every tool of that server (a call whose
		// server is unknown: a Claude hook's if filter).
		if strings.HasPrefix(r.Tool, "mcp__") && strings.Count(r.Tool, "__") == 1 && strings.HasPrefix(n, r.Tool+"__") {
			return true
		}
	}
	return false
}
