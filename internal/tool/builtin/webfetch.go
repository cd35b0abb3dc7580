package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/sandbox"
	"github.com/synaps-cli/synaps/internal/tool"
)

// WebFetchToolName is the web_fetch tool's synaps name; Claude's is
// WebFetch, with the same input.
const WebFetchToolName = "web_fetch"

const (
	// fetchMaxBody is the most bytes of a response read; the rest is not
	// downloaded.
	fetchMaxBody = 5 << 20
	// fetchMaxRedirects is how many redirects one fetch follows.
	fetchMaxRedirects = 5
	// fetchTimeout bounds one fetch, redirects included.
	fetchTimeout = 30 * time.Second
)

// WebFetch configures the web_fetch tool.
type WebFetch struct {
	// Network is the sandbox's network rule (config sandbox.network.allow
	// and deny): a host it refuses is not fetched, nor redirected to.
	Network sandbox.Network
	// Client does the requests; nil: a client of its own.
	Client *http.Client
	// MaxOutput bounds the markdown returned (Options.MaxOutput).
	MaxOutput int
}

// Tool is the web_fetch tool.
func (w WebFetch) Tool() tool.Tool {
	if w.MaxOutput <= 0 {
		w.MaxOutput = DefaultMaxOutput
	}
	return &webFetchTool{w}
}

type webFetchTool struct{ w WebFetch }

func (t *webFetchTool) Spec() tool.Spec {
	return tool.Spec{
		Name:        WebFetchToolName,
		RuntimeName: WebFetchToolName,
		Description: "Fetch a web page (http or https) and return its text as Markdown, with the prompt noted: read the page to answer it. Long pages are cut, and the result says where. Hosts the sandbox's network rules refuse are not fetched.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string","format":"uri","description":"The URL to fetch"},"prompt":{"type":"string","description":"What to find out from the page"}},"required":["url","prompt"]}`),
		Source:      Source,
	}
}

func (t *webFetchTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	var in struct {
		URL    string `json:"url"`
		Prompt string `json:"prompt"`
	}
	if err := decode(input, &in); err != nil {
		return fail("web_fetch: %v", err), nil
	}
	u, err := url.Parse(strings.TrimSpace(in.URL))
	if err != nil || in.URL == "" {
		return fail("web_fetch: url %q is not a URL: give a full http:// or https:// address", in.URL), nil
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fail("web_fetch: url %q: only http and https are fetched", in.URL), nil
	}
	if u.Host == "" {
		return fail("web_fetch: url %q has no host", in.URL), nil
	}
	if msg := t.refused(u); msg != "" {
		return fail("%s", msg), nil
	}
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	client := t.w.Client
	if client == nil {
		client = &http.Client{}
	}
	c := *client
	var refusal string
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > fetchMaxRedirects {
			return fmt.Errorf("more than %d redirects", fetchMaxRedirects)
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return fmt.Errorf("a redirect to %s, which is not http or https", req.URL)
		}
		if refusal = t.refused(req.URL); refusal != "" {
			return errors.New(refusal)
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fail("web_fetch: %v", err), nil
	}
	req.Header.Set("User-Agent", "synaps-web-fetch")
	req.Header.Set("Accept", "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.1")
	resp, err := c.Do(req)
	if err != nil {
		if refusal != "" {
			return fail("%s", refusal), nil
		}
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled) {
			return tool.Result{}, ctx.Err()
		}
		return fail("web_fetch: %s: %v", u, unwrapURLError(err)), nil
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, fetchMaxBody+1))
	if err != nil {
		return fail("web_fetch: %s: reading the response: %v", u, unwrapURLError(err)), nil
	}
	cut := len(body) > fetchMaxBody
	if cut {
		body = body[:fetchMaxBody]
	}
	final := resp.Request.URL.String()
	if resp.StatusCode >= 400 {
		return fail("web_fetch: %s answered %s", final, resp.Status), nil
	}
	ctype, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	var text string
	switch {
	case ctype == "text/html" || ctype == "application/xhtml+xml" || (ctype == "" && looksHTML(body)):
		if text, err = htmlToMarkdown(bytes.NewReader(body)); err != nil {
			return fail("web_fetch: %s: the HTML could not be read: %v", final, err), nil
		}
	case strings.HasPrefix(ctype, "text/") || ctype == "application/json" || strings.HasSuffix(ctype, "+json") || strings.HasSuffix(ctype, "+xml") || ctype == "application/xml" || (ctype == "" && utf8.Valid(body)):
		text = string(body)
	default:
		return fail("web_fetch: %s is %s, not a page of text: fetch it with bash (curl) if you need the file", final, ctype), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "URL: %s\n", final)
	if final != u.String() {
		fmt.Fprintf(&b, "(redirected from %s)\n", u)
	}
	if p := strings.TrimSpace(in.Prompt); p != "" {
		fmt.Fprintf(&b, "Prompt: %s\n(synaps returns the page itself: answer the prompt from it)\n", p)
	}
	b.WriteString("\n")
	if cut {
		text += fmt.Sprintf("\n[the response was cut at %s: only its start was downloaded]\n", formatSize(fetchMaxBody))
	}
	room := t.w.MaxOutput - b.Len()
	if len(text) > room {
		i := max(0, room-200)
		for i > 0 && !utf8.RuneStart(text[i]) {
			i--
		}
		text = text[:i] + fmt.Sprintf("\n\n[cut at byte %d of %d of the page's Markdown: the rest is not shown]\n", i, len(text))
	}
	b.WriteString(text)
	return tool.Result{Output: b.String()}, nil
}

// refused is why the network rules refuse u's host, naming the setting;
// "" when they allow it.
func (t *webFetchTool) refused(u *url.URL) string {
	n := t.w.Network
	host := strings.ToLower(u.Hostname())
	hp := host
	if p := u.Port(); p != "" {
		hp = host + ":" + p
	}
	if n.Allows(hp) {
		return ""
	}
	for _, d := range n.Deny {
		if !(sandbox.Network{Restricted: true, Deny: []string{d}}).Allows(hp) {
			return fmt.Sprintf("web_fetch: %s is refused by sandbox.network.deny (%s) in the synaps config", host, d)
		}
	}
	return fmt.Sprintf("web_fetch: %s is not in sandbox.network.allow (%s) in the synaps config: add it there to fetch it", host, strings.Join(n.Allow, ", "))
}

func looksHTML(b []byte) bool {
	head := strings.ToLower(string(b[:min(len(b), 512)]))
	return strings.Contains(head, "<html") || strings.Contains(head, "<!doctype html")
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
