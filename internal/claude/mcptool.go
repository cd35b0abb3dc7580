package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
)

// mcp_tool hooks, as Claude Code 2.1.332 runs them: the tool of an
// already configured MCP server is called with the hook's "input" (none:
// {}), whose string values may name fields of the event's JSON
// (${tool_input.file_path}); the tool's text answer is read as a command
// hook's stdout. A server that is not connected, a call that fails or
// times out, or an error result is a non-blocking error — blocking with
// onFailure "block", which also counts plain text as a failure: the
// tool must answer a hook's JSON output, {} or nothing.

// ToolCaller calls tool of MCP server with args; text is the result's
// text, isError the tool's own error flag.
type ToolCaller func(ctx context.Context, server, tool string, args json.RawMessage) (text string, isError bool, err error)

// fieldRef is a ${path} in an mcp_tool hook's input.
var fieldRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Za-z0-9_.]+)\}`) })

// mcpArgs is h.Input with each ${path} in its strings replaced by that
// field of the payload: a string as it is, anything else as JSON, a
// missing one as "".
func mcpArgs(input map[string]any, payload []byte) (json.RawMessage, error) {
	if len(input) == 0 {
		return json.RawMessage("{}"), nil
	}
	var doc any
	_ = json.Unmarshal(payload, &doc)
	var fill func(v any) any
	fill = func(v any) any {
		switch x := v.(type) {
		case string:
			return fieldRef().ReplaceAllStringFunc(x, func(ref string) string {
				return fieldText(doc, fieldRef().FindStringSubmatch(ref)[1])
			})
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				out[k] = fill(e)
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = fill(e)
			}
			return out
		}
		return v
	}
	return json.Marshal(fill(map[string]any(input)))
}

// fieldText is the value at a dotted path of doc, as text.
func fieldText(doc any, path string) string {
	v := doc
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		if v, ok = m[k]; !ok {
			return ""
		}
	}
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// callTool runs an mcp_tool hook to a Run: the tool's text as stdout, a
// failure as StartErr.
func (l *Link) callTool(ctx context.Context, h Handler, payload []byte, timeout time.Duration) Run {
	r := Run{Timeout: timeout}
	name := "mcp__" + h.Server + "__" + h.Tool
	if l.CallTool == nil {
		r.StartErr = fmt.Errorf("%s: MCP servers are not available here", name)
		return r
	}
	args, err := mcpArgs(h.Input, payload)
	if err != nil {
		r.StartErr = fmt.Errorf("%s: its input: %v", name, err)
		return r
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	text, isError, err := l.CallTool(ctx, h.Server, h.Tool, args)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		r.TimedOut = true
	case err != nil:
		r.StartErr = fmt.Errorf("%s: %v", name, err)
	case isError:
		r.StartErr = fmt.Errorf("%s answered an error: %s", name, clip(strings.TrimSpace(text), 500))
	case h.OnFailureBlock && strings.TrimSpace(text) != "" && !strings.HasPrefix(strings.TrimSpace(text), "{"):
		r.StartErr = fmt.Errorf("%s answered plain text, not a hook's JSON output: %s", name, clip(strings.TrimSpace(text), 200))
	default:
		r.Stdout = text
	}
	return r
}
