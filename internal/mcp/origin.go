package mcp

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// A remote server's configured headers (an Authorization: Bearer, an API
// key) are for its origin only: the server's url's scheme, host and port.
// A redirect elsewhere is not followed, and no request to another origin
// (an SSE endpoint event naming one, say) carries them.

// maxRedirects is as many redirects as net/http follows by default.
const maxRedirects = 10

// origin is a url's scheme://host:port, lowercased, the default port
// filled in, so that https://Example.com and https://example.com:443 are
// one origin.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// httpClient is the client of a remote server at endpoint: it adds the
// configured headers to requests to the endpoint's origin and follows
// redirects only within it.
func httpClient(endpoint string, headers map[string]string) *http.Client {
	u, err := url.Parse(endpoint)
	home := ""
	if err == nil {
		home = origin(u)
	}
	return &http.Client{
		Transport: headerTransport{base: http.DefaultTransport, headers: headers, origin: home},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return fmt.Errorf("stopped after %d redirects", maxRedirects)
			}
			if origin(req.URL) != home {
				return &crossOriginRedirect{from: via[len(via)-1].URL.String(), to: req.URL.String()}
			}
			return nil
		},
	}
}

// crossOriginRedirect is a redirect synaps did not follow.
type crossOriginRedirect struct{ from, to string }

func (e *crossOriginRedirect) Error() string {
	return fmt.Sprintf("%s redirected to %s, another origin; synaps does not follow it, so that the server's headers are not sent there: if you trust that address, put it in the server's \"url\"", e.from, e.to)
}

// headerTransport adds a server's configured headers to every request to
// its origin.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
	// origin is the configured url's (origin()); "" sends the headers
	// nowhere.
	origin string
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 && h.origin != "" && origin(r.URL) == h.origin {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(r)
}
