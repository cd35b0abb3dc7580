package mcptest

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

type fetchIn struct {
	URL    string `json:"url" jsonschema:"the http URL to get"`
	Direct bool   `json:"direct,omitempty" jsonschema:"connect without the proxy of HTTP_PROXY"`
}

// AddFetch adds the tool of the "net" mode: fetch gets a URL and answers
// its body, through the proxy HTTP_PROXY names (for loopback hosts too, as
// curl does; Go's own transport would skip it for them), or, with direct,
// connecting itself. A failure, or a status other than 200, is an error
// result, also written to stderr as servers log it.
func AddFetch(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "fetch", Description: "Gets a URL."}, func(ctx context.Context, _ *sdk.CallToolRequest, in fetchIn) (*sdk.CallToolResult, any, error) {
		fail := func(msg string) (*sdk.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "fetch:", msg)
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}, nil, nil
		}
		tr := &http.Transport{DialContext: (&net.Dialer{Timeout: 5 * time.Second}).DialContext}
		if p := os.Getenv("HTTP_PROXY"); p != "" && !in.Direct {
			u, err := url.Parse(p)
			if err != nil {
				return fail(fmt.Sprintf("HTTP_PROXY %q: %v", p, err))
			}
			tr.Proxy = http.ProxyURL(u)
		}
		defer tr.CloseIdleConnections()
		client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
		resp, err := client.Get(in.URL)
		if err != nil {
			return fail(err.Error())
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
		if resp.StatusCode != http.StatusOK {
			return fail(fmt.Sprintf("%s: %s", resp.Status, body))
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(body)}}}, nil, nil
	})
}
