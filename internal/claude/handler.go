package claude

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Handler is one hook of a matcher group: a command, an http POST, a
// prompt to a small model, an agent or an MCP tool call (Claude Code
// 2.1.332's five types), with the fields every type shares.
type Handler struct {
	// Type is "command", "http", "prompt", "agent" or "mcp_tool".
	Type string
	// Command is the shell command; with Args, the executable run
	// directly with them (exec form, no shell).
	Command string
	Args    []string
	// Timeout is in seconds, as Claude's; 0 means the type's and
	// event's default.
	Timeout float64
	// If is a permission-rule filter (`Bash(git commit:*)`): the handler
	// runs only for tool calls the rule matches.
	If string
	// Shell is "bash" (default) or "powershell".
	Shell string
	// OnFailureBlock is `onFailure: "block"`: a hook that fails (exits
	// other than 0 or 2, times out, answers non-2xx, cannot start)
	// blocks what the event guards instead of letting it go on.
	OnFailureBlock bool
	// Once: the hook runs the first time it matches in a session only.
	Once bool
	// StatusMessage is shown to the user while the hook runs.
	StatusMessage string
	// Async runs a command hook in the background: the event does not
	// wait for it. AsyncRewake also wakes the agent with the hook's
	// stderr when it exits 2; RewakeMessage prefixes that text.
	Async, AsyncRewake bool
	RewakeMessage      string

	// ID is the hook's stable id (hook.ClaudeHookID), set by whoever
	// builds the link (Hooks.WithIDs): a report names the hook by it.
	// Not part of the file, nor of what makes two hooks the same.
	ID string

	// URL, Headers and AllowedEnvVars are an http hook's: the payload
	// is POSTed to URL; header values may name $VAR or ${VAR} from
	// AllowedEnvVars (others read as "").
	URL            string
	Headers        map[string]string
	AllowedEnvVars []string

	// Prompt is a prompt or agent hook's text; $ARGUMENTS is replaced
	// by the payload. Model overrides the small fast model.
	// ContinueOnBlock: an ok:false answer blocks without ending the
	// turn (on PostToolUse the reason goes back to the model).
	Prompt          string
	Model           string
	ContinueOnBlock bool

	// Server, Tool and Input are an mcp_tool hook's: the MCP server
	// (as configured) and tool to call, with Input as its arguments.
	Server string
	Tool   string
	Input  map[string]any

	// at names the handler in its file (hooks.PreToolUse[0].hooks[1]):
	// messages, and what Once remembers.
	at string
}

// label is how a handler is quoted in messages to the model: its
// command, or its type and target.
func (h Handler) label() string {
	switch h.Type {
	case "http":
		return h.URL
	case "prompt", "agent":
		return clip(h.Prompt, 100)
	case "mcp_tool":
		return "mcp__" + h.Server + "__" + h.Tool
	}
	if len(h.Args) > 0 {
		return h.Command + " " + strings.Join(h.Args, " ")
	}
	return h.Command
}

// key is what makes two handlers the same hook: Claude Code runs
// identical commands (and identical URLs) once per event.
func (h Handler) key() string {
	switch h.Type {
	case "http":
		return "http\x00" + h.URL
	case "prompt", "agent":
		return h.Type + "\x00" + h.Prompt + "\x00" + h.Model
	case "mcp_tool":
		in, _ := json.Marshal(h.Input)
		return "mcp\x00" + h.Server + "\x00" + h.Tool + "\x00" + string(in)
	}
	return "command\x00" + h.Command + "\x00" + strings.Join(h.Args, "\x00")
}

// handlerTypes are Claude Code's hook types.
var handlerTypes = []string{"command", "http", "prompt", "agent", "mcp_tool"}

// parseHandler reads one handler object; at names it for messages.
func parseHandler(at string, raw json.RawMessage) (Handler, []string, error) {
	var hd struct {
		Type            string            `json:"type"`
		Command         string            `json:"command"`
		Args            []string          `json:"args"`
		Timeout         json.RawMessage   `json:"timeout"`
		If              string            `json:"if"`
		Shell           string            `json:"shell"`
		Async           bool              `json:"async"`
		AsyncRewake     bool              `json:"asyncRewake"`
		RewakeMessage   string            `json:"rewakeMessage"`
		Once            bool              `json:"once"`
		StatusMessage   string            `json:"statusMessage"`
		OnFailure       *string           `json:"onFailure"`
		URL             string            `json:"url"`
		Headers         map[string]string `json:"headers"`
		AllowedEnvVars  []string          `json:"allowedEnvVars"`
		Prompt          string            `json:"prompt"`
		Model           string            `json:"model"`
		ContinueOnBlock bool              `json:"continueOnBlock"`
		Server          string            `json:"server"`
		Tool            string            `json:"tool"`
		Input           map[string]any    `json:"input"`
	}
	if err := json.Unmarshal(raw, &hd); err != nil {
		return Handler{}, nil, fmt.Errorf("%s must be {\"type\": \"command\", \"command\": \"…\"}: %v", at, err)
	}
	h := Handler{Type: hd.Type, Command: hd.Command, Args: hd.Args, If: hd.If, Shell: hd.Shell,
		Once: hd.Once, StatusMessage: hd.StatusMessage, Async: hd.Async || hd.AsyncRewake, AsyncRewake: hd.AsyncRewake, RewakeMessage: hd.RewakeMessage,
		URL: hd.URL, Headers: hd.Headers, AllowedEnvVars: hd.AllowedEnvVars,
		Prompt: hd.Prompt, Model: hd.Model, ContinueOnBlock: hd.ContinueOnBlock,
		Server: hd.Server, Tool: hd.Tool, Input: hd.Input, at: at}
	var warnings []string
	if !slices.Contains(handlerTypes, hd.Type) {
		hint := ""
		if near := nearest(hd.Type, handlerTypes); near != "" {
			hint = fmt.Sprintf("did you mean %q? ", near)
		}
		return h, []string{fmt.Sprintf("%s: a %q hook; %sClaude Code's types are %s, so this one is skipped", at, hd.Type, hint, strings.Join(handlerTypes, ", "))}, errSkip
	}
	if len(hd.Timeout) > 0 && !isNull(hd.Timeout) {
		if err := json.Unmarshal(hd.Timeout, &h.Timeout); err != nil || h.Timeout <= 0 {
			return h, nil, fmt.Errorf("%s.timeout must be a number of seconds above 0, got %s", at, hd.Timeout)
		}
	}
	if hd.OnFailure != nil {
		// Claude Code reads any value but "continue" as "block".
		h.OnFailureBlock = *hd.OnFailure != "continue"
		if *hd.OnFailure != "continue" && *hd.OnFailure != "block" {
			warnings = append(warnings, fmt.Sprintf("%s.onFailure %q reads as \"block\", as in Claude Code (its values are \"continue\" and \"block\")", at, *hd.OnFailure))
		}
	}
	if h.Async && hd.Type != "command" {
		warnings = append(warnings, fmt.Sprintf("%s: async is for command hooks; this %s hook runs synchronously", at, hd.Type))
	}
	switch hd.Type {
	case "command":
		if strings.TrimSpace(hd.Command) == "" {
			hint := ""
			if unknown := unknownKeys(raw); len(unknown) > 0 {
				hint = fmt.Sprintf(" (it has %s, which Claude Code does not read: a misspelt \"command\"?)", strings.Join(unknown, ", "))
			}
			return h, warnings, fmt.Errorf("%s.command is empty%s: give the shell command the hook runs", at, hint)
		}
		if hd.Shell != "" && hd.Shell != "bash" && hd.Shell != "powershell" {
			warnings = append(warnings, fmt.Sprintf("%s.shell %q: Claude Code's shells are \"bash\" and \"powershell\"; the command runs with bash", at, hd.Shell))
			h.Shell = ""
		}
	case "http":
		u, err := url.Parse(hd.URL)
		if hd.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return h, warnings, fmt.Errorf("%s.url %q: an http hook needs the http:// or https:// URL to POST the payload to", at, hd.URL)
		}
	case "prompt", "agent":
		if strings.TrimSpace(hd.Prompt) == "" {
			return h, warnings, fmt.Errorf("%s.prompt is empty: a %s hook needs the prompt that says what to check ($ARGUMENTS is the event's JSON)", at, hd.Type)
		}
	case "mcp_tool":
		if hd.Server == "" || hd.Tool == "" {
			return h, warnings, fmt.Errorf("%s: an mcp_tool hook needs \"server\" (a configured MCP server) and \"tool\" (one of its tools)", at)
		}
	}
	return h, warnings, nil
}

// errSkip: the handler is left out, with a warning; the file loads.
var errSkip = fmt.Errorf("skipped")
