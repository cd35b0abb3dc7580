// Package claude reads what Claude Code users already have — command
// hooks in settings.json and plugins' hooks/hooks.json — and speaks the
// hooks' side of Claude's contract: the stdin payload of each event, its
// tools' names and input shapes, and what a hook's exit code and output
// mean.
//
// A file's hooks join synaps's chain as one hook.Link (Link), so the
// chain's rules hold for them as for any extension. The package owns the
// translation and that link; it does not know the agent, plugin
// discovery or which files are trusted — its caller finds the files and
// builds the chain. Facts come from ../shared/spec/claude-compat.md
// (Claude Code 2.1.197) and its captured payloads.
package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/synaps-cli/synaps/internal/spelling"
)

// Hooks is one file's hooks: for each event, its matcher groups in file
// order.
type Hooks struct {
	// File is where the hooks came from, for messages.
	File   string
	Events map[string][]Group
}

// Group is a matcher and the handlers it runs.
type Group struct {
	Matcher  Matcher
	Handlers []Handler
}

// DefaultTimeout is a command hook's time limit when it sets none, in
// seconds (Claude Code's since 2.1.3), and PromptTimeout the limit on
// UserPromptSubmit.
const (
	DefaultTimeout = 600
	PromptTimeout  = 30
)

// Parse reads hooks from a settings file (`{"hooks":{…}, …}`) or a plugin's
// hooks/hooks.json (`{"description":…,"hooks":{…}}`) — the same shape at
// the top. A file without hooks is no error. Errors name the file and the
// field; warnings name what was skipped and why.
func Parse(file string, data []byte) (Hooks, []string, error) {
	h := Hooks{File: file, Events: map[string][]Group{}}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return h, nil, fmt.Errorf("%s: %s", file, jsonError(data, err))
	}
	var warnings []string
	raw, ok := top["hooks"]
	if !ok || isNull(raw) {
		// Events written at the top, without the "hooks" wrapper: Claude
		// Code would skip them silently; synaps takes them as written and
		// says how to write them.
		var bare []string
		for k := range top {
			if slices.Contains(Events, k) || slices.Contains(otherEvents, k) {
				bare = append(bare, k)
			}
		}
		if len(bare) == 0 {
			return h, nil, nil
		}
		slices.Sort(bare)
		warnings = append(warnings, fmt.Sprintf("%s: %s at the top level: Claude Code reads events only inside \"hooks\" ({\"hooks\": {\"%s\": […]}}); synaps runs them as written", file, strings.Join(bare, ", "), bare[0]))
		raw, _ = json.Marshal(top)
	}
	var events map[string]json.RawMessage
	if err := json.Unmarshal(raw, &events); err != nil {
		return h, nil, fmt.Errorf("%s: hooks must be an object of events (\"PreToolUse\": […]), got %s", file, kind(raw))
	}
	names := make([]string, 0, len(events))
	for name := range events {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, event := range names {
		if _, wasTop := top[event]; wasTop && !slices.Contains(Events, event) && !slices.Contains(otherEvents, event) {
			continue // another key of a settings file read as the top level
		}
		if spec, known := LookupEvent(event); known && spec.Hook == "" {
			// A Claude Code event synaps does not fire: said once, with why.
			warnings = append(warnings, fmt.Sprintf("%s: hooks.%s: synaps does not fire this Claude Code event (%s); its hooks are skipped", file, event, spec.Why))
			continue
		}
		if !slices.Contains(Events, event) {
			hint := ""
			// A Claude Code event synaps does not fire is no misspelling
			// of itself.
			if near := nearest(event, append(slices.Clone(Events), otherEvents...)); near != "" && near != event {
				hint = fmt.Sprintf("; did you mean %q?", near)
			}
			warnings = append(warnings, fmt.Sprintf("%s: hooks.%s: synaps does not fire this event; its hooks are skipped%s (it fires %s)", file, event, hint, strings.Join(Events, ", ")))
			continue
		}
		var groups []json.RawMessage
		if err := json.Unmarshal(events[event], &groups); err != nil {
			return h, warnings, fmt.Errorf("%s: hooks.%s must be a list of {\"matcher\":…, \"hooks\":[…]}, got %s", file, event, kind(events[event]))
		}
		for i, g := range groups {
			where := fmt.Sprintf("%s: hooks.%s[%d]", file, event, i)
			group, w, err := parseGroup(where, g)
			warnings = append(warnings, w...)
			if err != nil {
				return h, warnings, err
			}
			if len(group.Handlers) > 0 {
				h.Events[event] = append(h.Events[event], group)
			}
		}
	}
	return h, warnings, nil
}

func parseGroup(where string, raw json.RawMessage) (Group, []string, error) {
	var g struct {
		Matcher *string           `json:"matcher"`
		Hooks   []json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		return Group{}, nil, fmt.Errorf("%s must be {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": …}]}: %v", where, err)
	}
	var group Group
	var warnings []string
	m := ""
	if g.Matcher != nil {
		m = *g.Matcher
	}
	matcher, err := CompileMatcher(m)
	if err != nil {
		return group, nil, fmt.Errorf("%s.matcher %q: %v", where, m, err)
	}
	group.Matcher = matcher
	for j, hr := range g.Hooks {
		h, w, err := parseHandler(fmt.Sprintf("%s.hooks[%d]", where, j), hr)
		warnings = append(warnings, w...)
		if err == errSkip {
			continue
		}
		if err != nil {
			return group, warnings, err
		}
		group.Handlers = append(group.Handlers, h)
	}
	return group, warnings, nil
}

// jsonError says where in data a JSON error is, by line.
func jsonError(data []byte, err error) string {
	var se *json.SyntaxError
	off := int64(-1)
	switch e := err.(type) {
	case *json.SyntaxError:
		se, off = e, e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
	}
	if off < 0 {
		return "not valid JSON: " + err.Error()
	}
	line := 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n"))
	if se != nil {
		return fmt.Sprintf("line %d: not valid JSON: %v", line, se)
	}
	return fmt.Sprintf("line %d: %v", line, err)
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// kind names the JSON type of raw, for messages.
func kind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// otherTypes are Claude Code's hook types synaps does not run: none, since
// it runs all five of 2.1.332 (HandlerTypes).
var otherTypes []string

// nearest is the candidate name is most likely a misspelling of: the same
// ignoring case, or at most two edits away (one for names under six
// letters); "" when none is close.
func nearest(name string, candidates []string) string {
	best, bestD := "", 3
	if len(name) < 6 {
		bestD = 2
	}
	lower := strings.ToLower(name)
	for _, c := range candidates {
		if strings.EqualFold(name, c) {
			return c
		}
		if d := spelling.Distance(lower, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// handlerKeys are the keys of a hook handler Claude Code reads.
var handlerKeys = []string{"type", "command", "args", "timeout", "if", "shell", "async", "asyncRewake", "rewakeMessage", "once", "statusMessage", "onFailure",
	"url", "headers", "allowedEnvVars", "prompt", "model", "continueOnBlock", "server", "tool", "input", "agent"}

// unknownKeys lists the keys of a handler object Claude Code does not read,
// quoted, for a message.
func unknownKeys(raw json.RawMessage) []string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	var out []string
	for k := range m {
		if !slices.Contains(handlerKeys, k) {
			out = append(out, strconv.Quote(k))
		}
	}
	slices.Sort(out)
	return out
}
