package llm

import (
	"testing"
	"time"
)

func TestAPIErrorMessage(t *testing.T) {
	tests := []struct {
		err  APIError
		want string
	}{
		{APIError{Provider: "anthropic", Status: 401, Type: "authentication_error", Message: "invalid x-api-key"},
			"anthropic API error 401 authentication_error: invalid x-api-key (check ANTHROPIC_API_KEY: the key is missing, mistyped or revoked)"},
		{APIError{Provider: "openai", Status: 401, Message: "Unauthorized"},
			"openai API error 401: Unauthorized (check OPENAI_API_KEY: the key is missing, mistyped or revoked)"},
		{APIError{Provider: "openai", Status: 403, Message: "no"},
			"openai API error 403: no (the key in OPENAI_API_KEY is not allowed to use this model or endpoint)"},
		{APIError{Provider: "anthropic", Status: 404, Type: "not_found_error", Message: "model: x"},
			"anthropic API error 404 not_found_error: model: x (check the model name and ANTHROPIC_BASE_URL)"},
		{APIError{Provider: "anthropic", Status: 413, Type: "request_too_large", Message: "too big"},
			"anthropic API error 413 request_too_large: too big (the conversation is too large; run /compact or start a new session)"},
		{APIError{Provider: "openai", Status: 429, Message: "slow down"},
			"openai API error 429: slow down (rate limited and out of retries; wait a little, or check your plan's limits)"},
		{APIError{Provider: "openai", Status: 429, Message: "quota", RetryAfter: 90 * time.Minute},
			"openai API error 429: quota (the service asks to wait 1h30m0s before retrying)"},
		{APIError{Provider: "anthropic", Status: 529, Type: "overloaded_error", Message: "Overloaded"},
			"anthropic API error 529 overloaded_error: Overloaded (the service is having trouble; try again shortly)"},
		{APIError{Provider: "anthropic", Status: 400, Type: "invalid_request_error", Message: "max_tokens: Field required"},
			"anthropic API error 400 invalid_request_error: max_tokens: Field required"},
		{APIError{Provider: "ext", Type: "weird"}, "ext API error weird"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() =\n  %s\nwant\n  %s", got, tt.want)
		}
	}
}

func TestRetryableStatus(t *testing.T) {
	for status, want := range map[int]bool{429: true, 500: true, 502: true, 503: true, 504: true, 529: true, 400: false, 401: false, 404: false, 408: false, 501: false, 0: false} {
		if got := RetryableStatus(status); got != want {
			t.Errorf("RetryableStatus(%d) = %v, want %v", status, got, want)
		}
	}
}
