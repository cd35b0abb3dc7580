// Package mcptest is a small MCP server and client for tests: the server
// is what synaps's MCP tests start (re-running a test binary as it), the
// client drives `synaps mcp serve`. It lives under internal/mcp, the only
// place that imports the MCP go-sdk.
package mcptest

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Env is the variable that makes a test binary run as the server: its
// value is the mode for Run.
const Env = "SYNAPS_MCP_TEST_SERVER"

// Main runs the server and exits when Env is set; call it first thing in
// TestMain.
func Main() {
	if mode := os.Getenv(Env); mode != "" {
		os.Exit(Run(mode))
	}
}

// TinyPNG is a 1×1 PNG.
var TinyPNG, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")

type echoIn struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

type envIn struct {
	Name string `json:"name"`
}

// NewServer is the test server's tool set: echo, env (says a
// variable of its environment), image (text and a 1×1 PNG), structured,
// fail (an isError result), slow (answers when cancelled), exit (ends the
// process) and add_tool
// (adds the tool "late", so the server sends tools/list_changed).
func NewServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "synaps-test", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes text."}, func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text}}}, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "env", Description: "Says an environment variable.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}, func(_ context.Context, _ *sdk.CallToolRequest, in envIn) (*sdk.CallToolResult, any, error) {
		v, ok := os.LookupEnv(in.Name)
		if !ok {
			v = "(unset)"
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: v}}}, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "image", Description: "A tiny image."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{
			&sdk.TextContent{Text: "a tiny image"},
			&sdk.ImageContent{MIMEType: "image/png", Data: TinyPNG},
		}}, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "structured", Description: "Structured output."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, map[string]any, error) {
		return nil, map[string]any{"temperature": 21}, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Always an error."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "it failed"}}}, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "slow", Description: "Answers when cancelled."}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	sdk.AddTool(s, &sdk.Tool{Name: "exit", Description: "Ends the server process (status 3)."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		fmt.Fprintln(os.Stderr, "exit tool called: going away")
		os.Exit(3)
		return nil, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "add_tool", Description: "Adds the tool late."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		sdk.AddTool(s, &sdk.Tool{Name: "late", Description: "Added by add_tool."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "late"}}}, nil, nil
		})
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "added"}}}, nil, nil
	})
	return s
}

// Run serves the test tools over stdio. Modes: "ok"; "crash"
// writes to stderr and exits 1 before speaking; "rough" misbehaves on
// stdout as real servers do (see AddRough); "files" adds read_file (see
// AddFiles), to see what a confined server may read; "net" adds read_file
// and fetch (AddFetch), to see what it may reach.
func Run(mode string) int {
	s := NewServer()
	switch mode {
	case "crash":
		fmt.Fprintln(os.Stderr, "starting the test server")
		fmt.Fprintln(os.Stderr, "fatal: cannot open the database: permission denied")
		return 1
	case "rough":
		// A log line on stdout before the first message, as servers
		// that console.log their banner print.
		fmt.Println("rough server listening on stdio")
		AddRough(s)
	case "files":
		AddFiles(s)
	case "net":
		AddFiles(s)
		AddFetch(s)
	case "ok":
	default:
		fmt.Fprintf(os.Stderr, "mcp-test-server: unknown mode %q\n", mode)
		return 2
	}
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

type bigIn struct {
	Bytes int `json:"bytes" jsonschema:"how many bytes of text to answer"`
}

// AddRough adds the tools of the "rough" mode: noise (prints a line that
// is not JSON and one that only looks like it to stdout, then answers
// "after noise"), big (answers a text of the bytes asked for, over any
// line limit if asked), stringy (its inputSchema is {"type":"string"})
// and typeless (its inputSchema has properties but no type).
func AddRough(s *sdk.Server) {
	object := map[string]any{"type": "object"}
	s.AddTool(&sdk.Tool{Name: "stringy", Description: "Has a string schema.", InputSchema: object}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "stringy"}}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "typeless", Description: "Has a schema without a type.", InputSchema: object}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "typeless"}}}, nil
	})
	// The SDK refuses such schemas in AddTool; they are put into the
	// tools/list result as it leaves.
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			res, err := next(ctx, method, req)
			lt, ok := res.(*sdk.ListToolsResult)
			if err != nil || !ok {
				return res, err
			}
			out := *lt
			out.Tools = make([]*sdk.Tool, len(lt.Tools))
			for i, t := range lt.Tools {
				c := *t
				switch t.Name {
				case "stringy":
					c.InputSchema = map[string]any{"type": "string"}
				case "typeless":
					c.InputSchema = map[string]any{"properties": map[string]any{"q": map[string]any{"type": "string"}}}
				}
				out.Tools[i] = &c
			}
			return &out, nil
		}
	})
	sdk.AddTool(s, &sdk.Tool{Name: "noise", Description: "Prints noise on stdout, then answers."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		// One write each: a pipe write this short is atomic, so the
		// noise never splits a message the SDK writes meanwhile.
		os.Stdout.WriteString("DEBUG: handling the noise tool\n")
		os.Stdout.WriteString("{not json at all\n")
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "after noise"}}}, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "big", Description: "Answers a text of the size asked for."}, func(_ context.Context, _ *sdk.CallToolRequest, in bigIn) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Repeat("x", in.Bytes)}}}, nil, nil
	})
}

type readIn struct {
	Path string `json:"path" jsonschema:"the file to read"`
}

// AddFiles adds the tools of the "files" mode: read_file answers a file's
// text, or an error result (also written to stderr, as servers log it)
// when the file cannot be read.
func AddFiles(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "read_file", Description: "Reads a file."}, func(_ context.Context, _ *sdk.CallToolRequest, in readIn) (*sdk.CallToolResult, any, error) {
		b, err := os.ReadFile(in.Path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "read_file:", err)
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}, nil, nil
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}, nil, nil
	})
}
