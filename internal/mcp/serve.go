package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/synaps-cli/synaps/internal/tool"
)

// ServeOptions say what `synaps mcp serve` offers.
type ServeOptions struct {
	// Registry holds the tools to serve: built-ins and extension tools
	// (tools of MCP servers synaps itself uses are left out).
	Registry *tool.Registry
	// Call runs one tool call through the hook chain, as the agent does
	// (required): a guard blocks here as it blocks in a session.
	Call func(ctx context.Context, name string, input json.RawMessage) tool.Result
	// Version is synaps's version, told to clients.
	Version string
	// Omit names tools not to serve: ones Call cannot run here (the
	// agent tool without a model).
	Omit []string
	// Delegating names tools that run other tools (the agent tool). They
	// are never served as read-only, whatever their own marking: a client
	// runs a read-only tool without asking, and the calls such a tool
	// makes on its own are asked of nobody here.
	Delegating []string
}

// Serve serves the registry's tools to one MCP client over in and out
// (newline-delimited JSON, the MCP stdio transport) until the client
// leaves or ctx ends.
func Serve(ctx context.Context, o ServeOptions, in io.ReadCloser, out io.WriteCloser) error {
	s := NewServer(o)
	return s.Run(ctx, &sdk.IOTransport{Reader: in, Writer: out})
}

// NewServer builds the MCP server of Serve, for tests that connect to it
// another way.
func NewServer(o ServeOptions) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "synaps", Version: o.Version}, nil)
	for _, spec := range o.Registry.Specs() {
		if strings.HasPrefix(spec.Source, "mcp:") || slices.Contains(o.Omit, spec.Name) {
			continue
		}
		schema, ok := objectSchema(spec.InputSchema)
		if !ok {
			continue
		}
		name := spec.Name
		// The tool's own marking tells the client what it may run
		// without asking (Claude Code runs a read-only tool in its
		// default mode); a tool that may change things says so too.
		ann := &sdk.ToolAnnotations{ReadOnlyHint: spec.ReadOnly && !slices.Contains(o.Delegating, spec.Name)}
		s.AddTool(&sdk.Tool{Name: name, Description: spec.Description, InputSchema: schema, Annotations: ann}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var input json.RawMessage
			if req.Params != nil {
				input = req.Params.Arguments
			}
			return fromResult(o.Call(ctx, name, input)), nil
		})
	}
	return s
}

// objectSchema is the tool's schema as MCP requires it: an object schema.
// A schema without a type gets "object"; one of another type is not
// served.
func objectSchema(raw json.RawMessage) (map[string]any, bool) {
	m := map[string]any{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, false
		}
	}
	switch m["type"] {
	case nil:
		m["type"] = "object"
	case "object":
	default:
		return nil, false
	}
	return m, true
}

// fromResult is a synaps tool result as MCP content.
func fromResult(r tool.Result) *sdk.CallToolResult {
	res := &sdk.CallToolResult{IsError: r.IsError}
	res.Content = append(res.Content, &sdk.TextContent{Text: r.Output})
	for _, im := range r.Images() {
		data, err := base64.StdEncoding.DecodeString(im.Data)
		if err == nil {
			res.Content = append(res.Content, &sdk.ImageContent{MIMEType: im.MediaType, Data: data})
		}
	}
	return res
}
