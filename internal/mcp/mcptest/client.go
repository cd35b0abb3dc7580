package mcptest

import (
	"context"
	"encoding/json"
	"io"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Client is an MCP client session, as a test needs it.
type Client struct {
	cs *sdk.ClientSession
}

// Connect speaks MCP (newline-delimited JSON) to a server reading in's
// other end and writing out's.
func Connect(ctx context.Context, r io.ReadCloser, w io.WriteCloser) (*Client, error) {
	c := sdk.NewClient(&sdk.Implementation{Name: "mcptest", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &sdk.IOTransport{Reader: r, Writer: w}, nil)
	if err != nil {
		return nil, err
	}
	return &Client{cs: cs}, nil
}

// Tools lists the server's tool names, sorted.
func (c *Client) Tools(ctx context.Context) ([]string, error) {
	var out []string
	for t, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out = append(out, t.Name)
	}
	sort.Strings(out)
	return out, nil
}

// ReadOnly lists the names of the server's tools marked read-only
// (annotations.readOnlyHint), sorted.
func (c *Client) ReadOnly(ctx context.Context) ([]string, error) {
	var out []string
	for t, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if t.Annotations != nil && t.Annotations.ReadOnlyHint {
			out = append(out, t.Name)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Call calls a tool and returns its text content and isError.
func (c *Client) Call(ctx context.Context, name string, args json.RawMessage) (string, bool, error) {
	res, err := c.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", false, err
	}
	var parts []string
	for _, ct := range res.Content {
		if t, ok := ct.(*sdk.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n"), res.IsError, nil
}

// Close ends the session.
func (c *Client) Close() error { return c.cs.Close() }
