package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/synaps-cli/synaps/internal/jsonrpc"
	"github.com/synaps-cli/synaps/internal/tool"
)

// extTool is a tool an extension registered. Its runtime name is
// "<plugin-id>:<tool>"; tool.call carries the extension's own name.
type extTool struct {
	ext  *Extension
	decl ToolDecl
}

func (t *extTool) Spec() tool.Spec {
	return tool.Spec{
		RuntimeName: t.ext.ID() + ":" + t.decl.Name,
		Description: t.decl.Description,
		InputSchema: t.decl.InputSchema,
		Source:      t.ext.source(),
	}
}

// Run calls the extension. Faults and error results come back as an error
// Result for the model, not as a Go error: a broken extension must not end
// the session.
func (t *extTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	if isNull(input) {
		input = json.RawMessage("{}")
	}
	if err := checkSendable("the input of tool "+t.decl.Name, input); err != nil {
		return tool.Result{Output: fmt.Sprintf("extension %s: %v; send a smaller or flatter input", t.ext.ID(), err), IsError: true}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, t.ext.env.deadline(MethodToolCall))
	defer cancel()
	raw, err := t.ext.call(ctx, MethodToolCall, toolCallParams{Name: t.decl.Name, Input: input}, callOpts{
		doing:   "running tool",
		what:    t.decl.Name,
		retry:   t.decl.Idempotent,
		noRetry: "since the tool may have had side effects (a tool is retried after a crash only if it declares \"idempotent\": true)",
	})
	if err != nil {
		var rpcErr *jsonrpc.Error
		var crash *CrashError
		switch {
		case errors.As(err, &rpcErr):
			return tool.Result{Output: fmt.Sprintf("extension %s: %s", t.ext.ID(), rpcErr.Message), IsError: true}, nil
		case errors.Is(err, context.DeadlineExceeded) || ctx.Err() == context.DeadlineExceeded:
			return tool.Result{Output: fmt.Sprintf("extension %s: tool %s did not answer within %s", t.ext.ID(), t.decl.Name, t.ext.env.deadline(MethodToolCall)), IsError: true}, nil
		case ctx.Err() != nil:
			return tool.Result{}, ctx.Err()
		case errors.As(err, &crash):
			return tool.Result{Output: crash.Error(), IsError: true}, nil
		default:
			return tool.Result{Output: fmt.Sprintf("extension %s: %v", t.ext.ID(), err), IsError: true}, nil
		}
	}
	return NormalizeToolResult(raw), nil
}

type toolCallParams struct {
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// NormalizeToolResult accepts every result shape of both dialects: a
// string; {"output": string} (guide); {"content": string} or
// {"content": [{"type":"text","text":...}]} (SynapsCLI); "is_error": true
// marks a failed call. Anything else is given to the model as its JSON.
func NormalizeToolResult(raw json.RawMessage) tool.Result {
	if isNull(raw) {
		return tool.Result{}
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return tool.Result{Output: s}
	}
	var obj struct {
		Output  json.RawMessage `json:"output"`
		Content json.RawMessage `json:"content"`
		IsError bool            `json:"is_error"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &obj) != nil {
		return tool.Result{Output: string(raw)}
	}
	for _, field := range []json.RawMessage{obj.Output, obj.Content} {
		if len(field) == 0 {
			continue
		}
		if text, err := textOf(field); err == nil {
			return tool.Result{Output: text, IsError: obj.IsError}
		}
		return tool.Result{Output: string(field), IsError: obj.IsError}
	}
	if obj.IsError && len(obj.Error) > 0 {
		if text, err := textOf(obj.Error); err == nil {
			return tool.Result{Output: text, IsError: true}
		}
	}
	return tool.Result{Output: string(raw), IsError: obj.IsError}
}

func (e *Extension) source() string { return "extension:" + e.ID() }
