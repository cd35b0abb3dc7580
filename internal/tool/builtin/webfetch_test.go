package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/sandbox"
)

const fetchPage = `<!doctype html><html><head><title>The Page</title><style>p{}</style><script>alert(1)</script></head>
<body><h2>Intro</h2><p>Some <b>bold</b> and <a href="/next">a link</a>.</p>
<ul><li>one</li><li>two</li></ul><pre><code>x := 1
y := 2</code></pre></body></html>`

// TestWebFetch: a page comes back as Markdown, redirects are followed
// up to the bound, refused hosts and bad inputs are errors naming what
// to change.
func TestWebFetch(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, fetchPage)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/page", http.StatusFound) })
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, strings.Repeat("abcdefghij", 1000))
	})
	mux.HandleFunc("/bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte{0x89, 'P', 'N', 'G', 0})
	})
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	hostname, _, _ := strings.Cut(host, ":")

	run := func(w WebFetch, input string) (string, bool) {
		t.Helper()
		res, err := w.Tool().Run(context.Background(), json.RawMessage(input))
		if err != nil {
			t.Fatal(err)
		}
		return res.Output, res.IsError
	}
	in := func(u string) string { return fmt.Sprintf(`{"url":%q,"prompt":"what is it about?"}`, u) }

	out, isErr := run(WebFetch{}, in(srv.URL+"/page"))
	want := "URL: " + srv.URL + "/page\nPrompt: what is it about?\n(synaps returns the page itself: answer the prompt from it)\n\n" +
		"# The Page\n\n## Intro\n\nSome **bold** and [a link](/next).\n\n- one\n- two\n\n```\nx := 1\ny := 2\n```\n"
	if isErr {
		t.Fatalf("page: error %s", out)
	}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("page (-want +got):\n%s", diff)
	}

	tests := []struct {
		name   string
		w      WebFetch
		input  string
		isErr  bool
		substr string
	}{
		{"redirect followed", WebFetch{}, in(srv.URL + "/moved"), false, "(redirected from " + srv.URL + "/moved)"},
		{"redirects bounded", WebFetch{}, in(srv.URL + "/loop"), true, "more than 5 redirects"},
		{"cut where said", WebFetch{MaxOutput: 1000}, in(srv.URL + "/big"), false, "of 10000 of the page's Markdown: the rest is not shown]"},
		{"binary refused", WebFetch{}, in(srv.URL + "/bin"), true, "is image/png, not a page of text"},
		{"status said", WebFetch{}, in(srv.URL + "/gone"), true, "answered 404 Not Found"},
		{"denied host", WebFetch{Network: sandbox.Network{Restricted: true, Deny: []string{hostname}}}, in(srv.URL + "/page"), true,
			hostname + " is refused by sandbox.network.deny (" + hostname + ") in the synaps config"},
		{"host not allowed", WebFetch{Network: sandbox.Network{Restricted: true, Allow: []string{"example.com"}}}, in(srv.URL + "/page"), true,
			hostname + " is not in sandbox.network.allow (example.com) in the synaps config"},
		{"scheme", WebFetch{}, in("file:///etc/passwd"), true, "only http and https are fetched"},
		{"no url", WebFetch{}, `{"prompt":"x"}`, true, "is not a URL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, isErr := run(tc.w, tc.input)
			if isErr != tc.isErr || !strings.Contains(out, tc.substr) {
				t.Errorf("got error=%v %q; want error=%v containing %q", isErr, out, tc.isErr, tc.substr)
			}
			if tc.w.MaxOutput > 0 && len(out) > tc.w.MaxOutput {
				t.Errorf("output is %d bytes, over MaxOutput %d", len(out), tc.w.MaxOutput)
			}
		})
	}
}

// TestWebFetchRedirectToDeniedHost: a redirect is judged by the network
// rules as the first URL is.
func TestWebFetchRedirectToDeniedHost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://denied.example/x", http.StatusFound)
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	w := WebFetch{Network: sandbox.Network{Restricted: true, Deny: []string{"denied.example"}}}
	res, _ := w.Tool().Run(context.Background(), json.RawMessage(fmt.Sprintf(`{"url":%q,"prompt":""}`, srv.URL)))
	if !res.IsError || !strings.Contains(res.Output, "denied.example is refused by sandbox.network.deny") {
		t.Errorf("redirect from %s: %+v", u.Host, res)
	}
}
