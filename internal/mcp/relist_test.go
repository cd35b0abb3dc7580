package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/synaps-cli/synaps/internal/mcp/mcptest"
)

// A server that answers every tools/list with tools/list_changed is
// re-listed a bounded number of times: the first list and RelistBurst
// re-lists, then the budget is spent (the next re-list waits for the
// refill, an hour here) and the server's status says so. Before, each
// list_changed made another list, without end.
func TestListChangedStormIsBounded(t *testing.T) {
	var lists atomic.Int64
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server {
		s := mcptest.NewServer()
		s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
			return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
				res, err := next(ctx, method, req)
				if method == "tools/list" {
					lists.Add(1)
					// Adding a tool makes the SDK send list_changed.
					s.AddTool(&sdk.Tool{Name: "again", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
						return &sdk.CallToolResult{}, nil
					})
				}
				return res, err
			}
		})
		return s
	}, nil)
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close) // after the manager's Close (cleanups run last first)
	m, reg := start(t, Options{relist: relistPolicy{delay: time.Millisecond, refill: time.Hour}},
		Server{Name: "storm", Type: TransportHTTP, URL: srv.URL})
	const want = 1 + RelistBurst
	// Not bounded: stop waiting long before the 30 s of eventually.
	eventually(t, "the re-lists are throttled", func() bool {
		return strings.Contains(statusOf(t, m, "storm").Err, "tools/list_changed") || lists.Load() > 5*want
	})
	if n := lists.Load(); n != want {
		t.Errorf("%d tools/list requests, want %d (the first and %d re-lists)", n, want, RelistBurst)
	}
	st := statusOf(t, m, "storm")
	if st.State != StateReady || !strings.Contains(st.Err, "the server sent tools/list_changed 11 times; synaps now re-lists its tools at most once every 1h0m0s") {
		t.Errorf("status %s %q: want ready, saying the re-lists are throttled", st.State, st.Err)
	}
	// The tools are there and work.
	if res := run(t, reg, "mcp__storm__echo", `{"text":"calm"}`); res.Output != "echo: calm" {
		t.Errorf("echo: %+v", res)
	}
	if _, _, ok := reg.Lookup("mcp__storm__again"); !ok {
		t.Errorf("the tool added before the last list is not registered: %v", reg.Names())
	}
}

// Notifications that come while a re-list waits are one re-list.
func TestListChangedIsDebounced(t *testing.T) {
	var lists atomic.Int64
	var srvRef atomic.Pointer[sdk.Server]
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server {
		s := mcptest.NewServer()
		srvRef.Store(s)
		s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
			return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
				if method == "tools/list" {
					lists.Add(1)
				}
				return next(ctx, method, req)
			}
		})
		return s
	}, nil)
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close) // after the manager's Close (cleanups run last first)
	// A delay no test machine outlasts between the notifications.
	m, _ := start(t, Options{relist: relistPolicy{delay: 2 * time.Second, refill: time.Hour}},
		Server{Name: "d", Type: TransportHTTP, URL: srv.URL})
	m.mu.Lock()
	s := m.servers[0]
	m.mu.Unlock()
	for range 20 {
		s.listChanged()
	}
	eventually(t, "the re-list", func() bool { return lists.Load() >= 2 })
	s.relist.mu.Lock()
	seen, scheduled := s.relist.seen, s.relist.scheduled
	s.relist.mu.Unlock()
	if n := lists.Load(); n != 2 || seen != 20 || scheduled {
		t.Errorf("%d lists after 20 notifications (%d seen, one still scheduled: %v), want 2 (the first and one re-list)", n, seen, scheduled)
	}
}
