// Package tool defines what the model can call: the Tool interface, the
// registry that names tools for the model, and result shapes shared by
// built-in, extension and MCP tools. Every tool passes through the
// same hooks, so they all look the same from here.
package tool

import (
	"context"
	"encoding/json"
)

// Spec describes a tool to the model and to hooks.
type Spec struct {
	// Name is the model-facing name: [A-Za-z0-9_-], at most 64 characters,
	// unique in a registry. Set by the registry when the tool is added.
	Name string
	// RuntimeName is the stable id: a built-in's own name ("bash") or
	// "<plugin-id>:<tool>" for an extension tool.
	RuntimeName string
	// Description tells the model what the tool does.
	Description string
	// InputSchema is the JSON Schema object of the tool's input.
	InputSchema json.RawMessage
	// Source says where the tool comes from: "builtin", "extension:<id>" or "mcp:<server>".
	Source string
	// ReadOnly declares that the tool changes nothing (a lookup, a read):
	// the default permission mode runs it without asking, plan mode runs
	// it, and calls of it in one model turn may run alongside each other.
	// false (bash, write, edit, extension tools unless declared) means it
	// may change things: it is asked about and keeps its order.
	ReadOnly bool
}

// Result is a finished tool call as the model will see it.
type Result struct {
	Output  string
	IsError bool
	// Diff is what the call changed in a file, for people only (see
	// Diff); nil when it changed none.
	Diff *Diff
	// Before is the file's text before the call, for hooks that report
	// it (a Claude PostToolUse hook's originalFile); nil when the tool
	// changed no text file or the file was new. Dropped with the Result:
	// nothing keeps it.
	Before *string
	// Media is what the result carries besides text (an MCP tool's
	// images, which reach the model as image blocks); nil for most tools.
	// A pointer, so that Result stays comparable.
	Media *Media
}

// Media is the non-text part of a result.
type Media struct {
	Images []Image
}

// Images are the result's pictures, if any.
func (r Result) Images() []Image {
	if r.Media == nil {
		return nil
	}
	return r.Media.Images
}

// Image is one picture of a tool result.
type Image struct {
	// MediaType is its MIME type, e.g. "image/png".
	MediaType string
	// Data is the picture, base64-encoded.
	Data string
}

// Tool is anything the model can call.
type Tool interface {
	Spec() Spec
	Run(ctx context.Context, input json.RawMessage) (Result, error)
}
