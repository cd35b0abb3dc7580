package mcp

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/synaps-cli/synaps/internal/mcp/mcptest"
)

// headerLog records the requests a server got and the configured headers
// they carried.
type headerLog struct {
	mu   sync.Mutex
	seen []string
}

func (l *headerLog) record(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = append(l.seen, fmt.Sprintf("%s %s auth=%q key=%q", r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("X-Api-Key")))
}

func (l *headerLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

// A remote server's configured headers go to its origin only: a 307 to
// another origin (another port of the same host) is not followed and the
// other server never sees them; an SSE endpoint event naming another
// origin gets its requests without them; a redirect within the origin is
// followed with them.
func TestHeadersStayWithTheirOrigin(t *testing.T) {
	var elsewhere headerLog
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcptest.NewServer() }, nil)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.record(r)
		mcpHandler.ServeHTTP(w, r)
	}))
	defer other.Close()
	var home headerLog
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		home.record(r)
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/mcp", http.StatusTemporaryRedirect)
		case "/moved":
			http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
		case "/sse":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: endpoint\ndata: %s/message\n\n", other.URL)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		default:
			mcpHandler.ServeHTTP(w, r)
		}
	}))
	defer srv.Close()
	headers := map[string]string{"Authorization": "Bearer ${SYNAPS_TEST_SECRET}", "X-Api-Key": "k3y"}
	away := Server{Name: "away", Type: TransportHTTP, URL: srv.URL + "/away", Headers: headers, StartupTimeoutSec: 10}
	sse := Server{Name: "sse", Type: TransportSSE, URL: srv.URL + "/sse", Headers: headers, StartupTimeoutSec: 10}
	moved := Server{Name: "moved", Type: TransportHTTP, URL: srv.URL + "/moved", Headers: headers}
	m, reg := start(t, Options{}, away, sse, moved)

	st := statusOf(t, m, "away")
	if st.State != StateFailed || !strings.Contains(st.Err, "redirected to "+other.URL+"/mcp, another origin; synaps does not follow it") {
		t.Errorf("away: %s %q; want failed, naming the refused redirect", st.State, st.Err)
	}
	if st := statusOf(t, m, "moved"); st.State != StateReady {
		t.Errorf("moved (a redirect within the origin): %s %s", st.State, st.Err)
	} else if res := run(t, reg, "mcp__moved__echo", `{"text":"x"}`); res.Output != "echo: x" {
		t.Errorf("moved echo: %+v", res)
	}
	m.Close()
	for _, r := range elsewhere.all() {
		if !strings.HasSuffix(r, `auth="" key=""`) {
			t.Errorf("the other origin got a configured header: %s", r)
		}
	}
	var sawSSE, sawMoved bool
	for _, r := range home.all() {
		if !strings.HasSuffix(r, `auth="Bearer s3cret" key="k3y"`) {
			t.Errorf("the server's own origin got a request without its headers: %s", r)
		}
		sawSSE = sawSSE || strings.HasPrefix(r, "GET /sse")
		sawMoved = sawMoved || strings.HasPrefix(r, "POST /mcp")
	}
	if !sawSSE || !sawMoved {
		t.Errorf("requests at home %v: want the SSE stream and the redirected POST", home.all())
	}
}

func TestOrigin(t *testing.T) {
	same := [][2]string{
		{"https://Example.com/mcp", "https://example.com:443/other"},
		{"http://127.0.0.1:8080/a", "http://127.0.0.1:8080/b?x=1"},
	}
	differ := [][2]string{
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8081/"},
		{"http://example.com/", "https://example.com/"},
		{"https://example.com/", "https://evil.example.com/"},
		{"https://example.com/", "https://example.com.evil.net/"},
	}
	o := func(s string) string {
		u, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return origin(u)
	}
	for _, p := range same {
		if o(p[0]) != o(p[1]) {
			t.Errorf("%s and %s: want one origin, got %s and %s", p[0], p[1], o(p[0]), o(p[1]))
		}
	}
	for _, p := range differ {
		if o(p[0]) == o(p[1]) {
			t.Errorf("%s and %s: want two origins, got %s", p[0], p[1], o(p[0]))
		}
	}
}
