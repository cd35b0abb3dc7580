package plugin

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
)

// Gemini CLI's hooks (hooks/hooks.json of an extension) are shaped as
// Claude Code's — {"hooks": {EVENT: [{"matcher", "hooks": [{"type":
// "command", "command", "timeout"}]}]}} — with their own event names, tool
// names in matchers, timeouts in milliseconds and ${extensionPath}.
// GeminiHooks writes them as Claude Code's, so internal/claude runs them
// in the one hook chain; an event synaps has no counterpart for is a
// warning, never silently dropped.

// geminiEvents maps Gemini CLI's hook events to Claude Code's.
var geminiEvents = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"BeforeTool":   "PreToolUse",
		"AfterTool":    "PostToolUse",
		"BeforeAgent":  "UserPromptSubmit",
		"AfterAgent":   "Stop",
		"SessionStart": "SessionStart",
		"SessionEnd":   "SessionEnd",
		"PreCompress":  "PreCompact",
		"Notification": "Notification",
	}
})

// geminiUnmapped are Gemini's events with no counterpart, and why.
var geminiUnmapped = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"BeforeModel":         "synaps gives hooks no say over the model request itself",
		"AfterModel":          "synaps gives hooks no say over the model's raw response",
		"BeforeToolSelection": "synaps does not let hooks narrow the tools offered per request",
	}
})

// GeminiHooks converts a Gemini hooks file into Claude Code's form. The
// warnings name each event or hook that was left out, and why.
func GeminiHooks(file string, data []byte) (out []byte, warnings []string, err error) {
	var doc struct {
		Hooks map[string][]struct {
			Matcher    string            `json:"matcher"`
			Sequential bool              `json:"sequential"`
			Hooks      []json.RawMessage `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("%s: not a Gemini CLI hooks file: %v; write {\"hooks\": {\"BeforeTool\": [{\"matcher\": \"write_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"…\"}]}]}}", file, err)
	}
	events := make([]string, 0, len(doc.Hooks))
	for e := range doc.Hooks {
		events = append(events, e)
	}
	sort.Strings(events)
	claude := map[string][]map[string]any{}
	x := geminiVar()
	for _, e := range events {
		name, ok := geminiEvents()[e]
		if !ok {
			why := geminiUnmapped()[e]
			if why == "" {
				why = "it is not a Gemini CLI hook event"
			}
			warnings = append(warnings, fmt.Sprintf("%s: hooks.%s is not run: %s", file, e, why))
			continue
		}
		for i, group := range doc.Hooks[e] {
			var hooks []map[string]any
			for j, raw := range group.Hooks {
				var h map[string]any
				if json.Unmarshal(raw, &h) != nil {
					warnings = append(warnings, fmt.Sprintf("%s: hooks.%s[%d].hooks[%d] is not an object; skipped", file, e, i, j))
					continue
				}
				if t, _ := h["type"].(string); t != "" && t != "command" {
					warnings = append(warnings, fmt.Sprintf("%s: hooks.%s[%d].hooks[%d]: type %q is not run (Gemini CLI runs command hooks only)", file, e, i, j, t))
					continue
				}
				if c, ok := h["command"].(string); ok {
					h["command"] = x.Replace(c)
				}
				if ms, ok := h["timeout"].(float64); ok && ms > 0 {
					h["timeout"] = math.Ceil(ms / 1000) // Gemini: ms; Claude: s
				}
				delete(h, "name")
				delete(h, "description")
				hooks = append(hooks, h)
			}
			if len(hooks) == 0 {
				continue
			}
			g := map[string]any{"hooks": hooks}
			if group.Matcher != "" {
				g["matcher"] = geminiMatcher(group.Matcher)
			}
			claude[name] = append(claude[name], g)
		}
	}
	out, err = json.Marshal(map[string]any{"hooks": claude})
	return out, warnings, err
}

// geminiMatcher writes the Gemini tool names of a matcher ("write_file|
// replace") as synaps's Claude names ("Write|Edit"); other alternatives
// stay as written.
func geminiMatcher(m string) string {
	parts := strings.Split(m, "|")
	for i, p := range parts {
		if n, ok := GeminiToolName(strings.TrimSpace(p)); ok {
			parts[i] = n
		}
	}
	return strings.Join(parts, "|")
}

// GeminiPayload rewrites a hook payload (Claude Code's shape) as Gemini
// CLI's hooks read it: hook_event_name is Gemini's event (BeforeTool …)
// and tool_name Gemini's tool (run_shell_command, write_file …), whose
// inputs have the same fields. A payload it cannot read is left as it is.
func GeminiPayload(payload []byte) []byte {
	var doc map[string]json.RawMessage
	if json.Unmarshal(payload, &doc) != nil {
		return payload
	}
	rename := func(key string, to map[string]string) {
		var v string
		if json.Unmarshal(doc[key], &v) != nil {
			return
		}
		if n, ok := to[v]; ok {
			doc[key], _ = json.Marshal(n)
		}
	}
	rename("hook_event_name", claudeToGeminiEvents())
	rename("tool_name", claudeToGeminiTools())
	out, err := json.Marshal(doc)
	if err != nil {
		return payload
	}
	return out
}

// claudeToGeminiEvents and claudeToGeminiTools invert geminiEvents and
// geminiTools (the first Gemini name of each synaps one).
var (
	claudeToGeminiEvents = sync.OnceValue(func() map[string]string { return invert(geminiEvents()) })
	claudeToGeminiTools  = sync.OnceValue(func() map[string]string {
		m := invert(geminiTools())
		// The snake_case names are the ones Gemini CLI's hooks see.
		m["Bash"], m["Write"], m["Edit"], m["Read"], m["Glob"], m["Grep"] = "run_shell_command", "write_file", "replace", "read_file", "glob", "search_file_content"
		return m
	})
)

func invert(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, taken := out[m[k]]; !taken {
			out[m[k]] = k
		}
	}
	return out
}
