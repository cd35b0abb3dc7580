package claude

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// An http hook, as Claude Code 2.1.332 sends one: the payload a command
// hook reads on stdin is POSTed as JSON to the hook's url; a 2xx answer's
// body is read as a command hook's stdout (JSON decides, plain text is
// shown); a non-2xx answer or a request that fails is a non-blocking
// error (blocking with onFailure "block"). Redirects are not followed.
// The request is synaps's own, not a confined process's: the sandbox's
// network rules do not apply to it.

// envRef is a $VAR or ${VAR} in a header value.
var envRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)
})

// expandHeader replaces the $VAR and ${VAR} in v by the variables of
// allowed (from lookup); any other reference becomes "", as in Claude
// Code, so a header never carries a variable the hook did not list.
func expandHeader(v string, allowed []string, lookup func(string) (string, bool)) string {
	return envRef().ReplaceAllStringFunc(v, func(ref string) string {
		m := envRef().FindStringSubmatch(ref)
		name := m[1] + m[2]
		if !slices.Contains(allowed, name) {
			return ""
		}
		val, _ := lookup(name)
		return val
	})
}

// httpClient sends every http hook: no redirects (Claude's
// maxRedirects 0), no proxy from the environment.
var httpClient = &http.Client{
	Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 4, IdleConnTimeout: 30 * time.Second},
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
}

// Post sends an http hook's request and reads its answer as a Run: a
// 2xx body is the stdout, anything else a failure (StartErr), a timeout
// TimedOut. lookup reads the environment for header values.
func Post(ctx context.Context, h Handler, payload []byte, timeout time.Duration, lookup func(string) (string, bool)) Run {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	r := Run{Timeout: timeout}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(payload))
	if err != nil {
		r.StartErr = fmt.Errorf("POST %s: %v", h.URL, err)
		return r
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h.Headers {
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "content-length", "transfer-encoding":
			continue // the body's length is the body's
		}
		req.Header.Set(strings.TrimSpace(k), expandHeader(v, h.AllowedEnvVars, lookup))
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			r.TimedOut = true
			return r
		}
		r.StartErr = fmt.Errorf("POST %s: %v", h.URL, unwrapURLError(err))
		return r
	}
	defer resp.Body.Close()
	var body capped
	_, err = io.Copy(&body, resp.Body)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		r.TimedOut = true
	case err != nil:
		r.StartErr = fmt.Errorf("POST %s: reading the answer: %v", h.URL, err)
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		r.StartErr = fmt.Errorf("POST %s answered %s", h.URL, resp.Status)
	default:
		r.Stdout, r.StdoutCut = body.String(), body.dropped
	}
	return r
}

// unwrapURLError drops the "Post \"URL\": " frame net/http puts on an
// error: the message already names the URL.
func unwrapURLError(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok || !strings.HasPrefix(err.Error(), "Post ") {
			return err
		}
		err = u.Unwrap()
	}
}
