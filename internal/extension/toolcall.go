package extension

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
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
		ReadOnly:    t.decl.ReadOnly,
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
	ctx, cancel := context.WithTimeout(ctx, t.ext.env.deadline(contract.MethodToolCall))
	defer cancel()
	if gone := t.ext.undeclared(ctx, t.decl.Name); gone != "" {
		return tool.Result{Output: gone, IsError: true}, nil
	}
	raw, err := t.ext.call(ctx, contract.MethodToolCall, toolCallParams{Name: t.decl.Name, Input: input}, callOpts{
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
			return tool.Result{Output: fmt.Sprintf("extension %s: tool %s did not answer within %s", t.ext.ID(), t.decl.Name, t.ext.env.deadline(contract.MethodToolCall)), IsError: true}, nil
		case ctx.Err() != nil:
			return tool.Result{}, ctx.Err()
		case errors.As(err, &crash):
			return tool.Result{Output: crash.Error(), IsError: true}, nil
		default:
			return tool.Result{Output: fmt.Sprintf("extension %s: %v", t.ext.ID(), err), IsError: true}, nil
		}
	}
	res := NormalizeToolResult(raw)
	diff, err := DecodeToolDiff(raw, t.decl.Name)
	if err != nil {
		// Said in the extension's log, where its author looks; the call
		// itself succeeded, so the model's result is unaffected.
		t.ext.log.note("%v", err)
	}
	res.Diff = diff
	return res, nil
}

// maxDiffSide is the most bytes of a diff's before or after text that are
// diffed: a diff is shown to people, never to the model.
const maxDiffSide = 4 << 20

// DecodeToolDiff reads the optional "diff" of a tool result object:
// {"path": "notes.txt", "before": "old text" | null, "after": "new text"}
// — what the tool changed in one file, shown to the user as built-in
// edit's diff is; a missing or null "before" means the file was created.
// No diff is (nil, nil); a malformed one is an error that says what to
// fix (the result itself still counts).
func DecodeToolDiff(raw json.RawMessage, toolName string) (*tool.Diff, error) {
	if !bytes.Contains(raw, []byte(`"diff"`)) {
		return nil, nil // the common case, without decoding the result twice
	}
	var obj struct {
		Diff json.RawMessage `json:"diff"`
	}
	if json.Unmarshal(raw, &obj) != nil || isNull(obj.Diff) {
		return nil, nil
	}
	var d struct {
		Path   *string `json:"path"`
		Before *string `json:"before"`
		After  *string `json:"after"`
	}
	bad := func(why string) error {
		return fmt.Errorf("tool %s: result \"diff\" %s; it is not shown (send {\"path\": string, \"before\": string or null, \"after\": string})", toolName, why)
	}
	if err := json.Unmarshal(obj.Diff, &d); err != nil {
		return nil, bad("is not an object of strings")
	}
	switch {
	case d.Path == nil || *d.Path == "":
		return nil, bad("has no \"path\"")
	case d.After == nil:
		return nil, bad("has no \"after\"")
	case len(*d.After) > maxDiffSide || d.Before != nil && len(*d.Before) > maxDiffSide:
		before := d.Before
		d := &tool.Diff{Path: *d.Path, TooLarge: true, Added: strings.Count(*d.After, "\n")}
		if before != nil {
			d.Removed = strings.Count(*before, "\n")
		}
		return d, nil
	case d.Before == nil:
		return tool.NewFileDiff(*d.Path, *d.After), nil
	}
	return tool.NewDiff(*d.Path, *d.Before, *d.After), nil
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
		if text, err := hook.TextOf(field); err == nil {
			return tool.Result{Output: text, IsError: obj.IsError}
		}
		return tool.Result{Output: string(field), IsError: obj.IsError}
	}
	if obj.IsError && len(obj.Error) > 0 {
		if text, err := hook.TextOf(obj.Error); err == nil {
			return tool.Result{Output: text, IsError: true}
		}
	}
	return tool.Result{Output: string(raw), IsError: obj.IsError}
}

func (e *Extension) source() string { return "extension:" + e.ID() }
