package transport

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/llm"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 12, 2, 13, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"none", nil, 0},
		{"seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{"http date", map[string]string{"Retry-After": "Wed, 02 Dec 2026 13:00:30 GMT"}, 30 * time.Second},
		{"http date in the past", map[string]string{"Retry-After": "Wed, 02 Dec 2026 12:00:00 GMT"}, 0},
		{"milliseconds win", map[string]string{"Retry-After": "7", "Retry-After-Ms": "1234"}, 1234 * time.Millisecond},
		{"bad milliseconds fall back", map[string]string{"Retry-After": "7", "Retry-After-Ms": "soon"}, 7 * time.Second},
		{"garbage", map[string]string{"Retry-After": "soon"}, 0},
		{"negative", map[string]string{"Retry-After": "-3"}, 0},
		{"nan", map[string]string{"Retry-After": "NaN"}, 0},
		{"huge is clamped", map[string]string{"Retry-After": "1e300"}, 24 * time.Hour},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		if got := RetryAfter(h, now); got != tt.want {
			t.Errorf("%s: RetryAfter = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestBackoffDelay(t *testing.T) {
	b := Backoff{Rand: func() float64 { return 0 }}
	var got []time.Duration
	for try := range 9 {
		got = append(got, b.Delay(try))
	}
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 30 * time.Second, 30 * time.Second, 30 * time.Second}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("delays mismatch (-want +got):\n%s", diff)
	}
	if d := b.Delay(1000); d != 30*time.Second {
		t.Errorf("Delay(1000) = %v, want the cap", d)
	}
	b.Rand = func() float64 { return 0.999999 }
	if d := b.Delay(0); d <= 375*time.Millisecond || d > 500*time.Millisecond {
		t.Errorf("jittered Delay(0) = %v, want in (375ms, 500ms]", d)
	}
}

func TestRetry(t *testing.T) {
	overloaded := &llm.APIError{Provider: "p", Status: 529}
	tests := []struct {
		name     string
		max      int
		errs     []error // what each attempt returns; nil ends
		content  int     // attempt number (1-based) that emits a text event before failing; 0 none
		wantTrys int
		wantErr  error
		sleeps   []time.Duration
	}{
		{name: "success", max: 4, errs: []error{nil}, wantTrys: 1},
		{name: "retried then success", max: 4, errs: []error{overloaded, Temporary(errors.New("reset")), nil}, wantTrys: 3, sleeps: []time.Duration{time.Millisecond, 2 * time.Millisecond}},
		{name: "out of retries", max: 2, errs: []error{overloaded, overloaded, overloaded}, wantTrys: 3, wantErr: overloaded, sleeps: []time.Duration{time.Millisecond, 2 * time.Millisecond}},
		{name: "zero retries", max: 0, errs: []error{overloaded}, wantTrys: 1, wantErr: overloaded},
		{name: "400 not retried", max: 4, errs: []error{&llm.APIError{Status: 400}}, wantTrys: 1, wantErr: &llm.APIError{Status: 400}},
		{name: "plain error not retried", max: 4, errs: []error{errors.New("bad tool json")}, wantTrys: 1, wantErr: errors.New("bad tool json")},
		{name: "retry-after honoured", max: 4, errs: []error{&llm.APIError{Status: 429, RetryAfter: 42 * time.Second}, nil}, wantTrys: 2, sleeps: []time.Duration{42 * time.Second}},
		{name: "retry-after beyond a minute not retried", max: 4, errs: []error{&llm.APIError{Status: 429, RetryAfter: 61 * time.Second}}, wantTrys: 1, wantErr: &llm.APIError{Status: 429, RetryAfter: 61 * time.Second}},
		{name: "no retry after content", max: 4, errs: []error{Temporary(errors.New("reset"))}, content: 1, wantTrys: 1, wantErr: errors.New("reset")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sleeps []time.Duration
			b := Backoff{Base: time.Millisecond, Rand: func() float64 { return 0 }, Sleep: func(_ context.Context, d time.Duration) error {
				sleeps = append(sleeps, d)
				return nil
			}}
			var retryEvents int
			trys := 0
			err := Retry(context.Background(), tt.max, b, func(ev llm.Event) {
				if ev.Type == llm.EventRetry {
					retryEvents++
					if ev.Retry != retryEvents || ev.Retries != tt.max {
						t.Errorf("retry event numbered %d/%d, want %d/%d", ev.Retry, ev.Retries, retryEvents, tt.max)
					}
				}
			}, func(emit func(llm.Event)) error {
				trys++
				if trys == tt.content {
					emit(llm.Event{Type: llm.EventText, Text: "x"})
				}
				return tt.errs[trys-1]
			})
			if fmt.Sprint(err) != fmt.Sprint(tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if trys != tt.wantTrys || retryEvents != len(tt.sleeps) {
				t.Errorf("%d attempts, %d retry events; want %d, %d", trys, retryEvents, tt.wantTrys, len(tt.sleeps))
			}
			if diff := cmp.Diff(tt.sleeps, sleeps); diff != "" {
				t.Errorf("sleeps mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRetrySleepCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	trys := 0
	err := Retry(ctx, 4, Backoff{Base: time.Hour}, func(llm.Event) { cancel() }, func(func(llm.Event)) error {
		trys++
		return &llm.APIError{Status: 503}
	})
	if !errors.Is(err, context.Canceled) || trys != 1 {
		t.Errorf("err = %v after %d attempts, want context.Canceled after 1", err, trys)
	}
}

func TestParseError(t *testing.T) {
	tests := []struct {
		body         string
		typ, message string
	}{
		{`{"type":"error","error":{"type":"not_found_error","message":"model: x"}}`, "not_found_error", "model: x"},
		{`{"error":{"message":"Incorrect API key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, "invalid_request_error", "Incorrect API key"},
		{`{"error":"model 'x' not found"}`, "", "model 'x' not found"},
		{"  <html>Bad Gateway</html>\n", "", "<html>Bad Gateway</html>"},
		{`{"detail":"Not Found"}`, "", `{"detail":"Not Found"}`},
		{string(make([]byte, 0)), "", ""},
	}
	for _, tt := range tests {
		e := ParseError("p", []byte(tt.body))
		if e.Type != tt.typ || e.Message != tt.message || e.Provider != "p" {
			t.Errorf("ParseError(%q) = %+v, want type %q message %q", tt.body, e, tt.typ, tt.message)
		}
	}
	long := ParseError("p", []byte(string(make([]byte, 299))+"ééé"))
	if len(long.Message) != 299+len("…") {
		t.Errorf("long body: message of %d bytes, want cut at a rune boundary to 299 + ellipsis", len(long.Message))
	}
}
