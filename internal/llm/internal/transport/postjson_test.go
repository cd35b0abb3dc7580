package transport

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/llm"
)

// PostJSON against a loopback server: a JSON answer is returned as sent
// (not refused as Post refuses it); a 429 with Retry-After is waited out
// for as long as the server asked, then sent again; an error status is
// an *llm.APIError from the service's error body, not retried.
func TestPostJSON(t *testing.T) {
	type reply struct {
		status int
		header map[string]string
		body   string
	}
	tests := []struct {
		name     string
		replies  []reply
		want     string
		wantErr  *llm.APIError
		requests int
		slept    []time.Duration
	}{
		{
			name:     "2xx JSON",
			replies:  []reply{{200, map[string]string{"Content-Type": "application/json"}, `{"answer":42}`}},
			want:     `{"answer":42}`,
			requests: 1,
		},
		{
			name: "429 with Retry-After, then 200",
			replies: []reply{
				{429, map[string]string{"Retry-After": "7"}, `{"error":{"type":"rate_limit_error","message":"slow down"}}`},
				{200, map[string]string{"Content-Type": "application/json"}, `{"answer":"late"}`},
			},
			want:     `{"answer":"late"}`,
			requests: 2,
			slept:    []time.Duration{7 * time.Second},
		},
		{
			name:     "400 with an API error body",
			replies:  []reply{{400, nil, `{"type":"error","error":{"type":"invalid_request_error","message":"no such tool"}}`}},
			wantErr:  &llm.APIError{Provider: "anthropic", Status: 400, Type: "invalid_request_error", Message: "no such tool"},
			requests: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var bodies []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				mu.Lock()
				bodies = append(bodies, string(b))
				rep := tt.replies[min(len(bodies), len(tt.replies))-1]
				mu.Unlock()
				for k, v := range rep.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(rep.status)
				io.WriteString(w, rep.body)
			}))
			defer srv.Close()
			var slept []time.Duration
			b := Backoff{Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}
			got, err := PostJSON(context.Background(), Request{
				Provider: "anthropic", Endpoint: srv.URL, Header: http.Header{"Content-Type": {"application/json"}},
				Body: [][]byte{[]byte(`{"q":`), []byte(`"x"}`)}, MaxRetries: 3, Backoff: b,
			})
			if tt.wantErr != nil {
				apiErr, ok := errors.AsType[*llm.APIError](err)
				if !ok {
					t.Fatalf("err = %v, want an *llm.APIError", err)
				}
				if d := cmp.Diff(tt.wantErr, apiErr); d != "" {
					t.Errorf("APIError (-want +got):\n%s", d)
				}
			} else if err != nil || string(got) != tt.want {
				t.Errorf("PostJSON = %q, %v; want %q", got, err, tt.want)
			}
			want := make([]string, tt.requests)
			for i := range want {
				want[i] = `{"q":"x"}`
			}
			if d := cmp.Diff(want, bodies); d != "" {
				t.Errorf("requests the server got (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.slept, slept); d != "" {
				t.Errorf("waits before retries (-want +got):\n%s", d)
			}
		})
	}
}
