package agent

import (
	"errors"
	"fmt"
	"testing"

	"github.com/synaps-cli/synaps/internal/llm"
)

// A model error in Claude Code's words, as StopFailure's matchers test it.
func TestErrorType(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&llm.APIError{Status: 429}, "rate_limit"},
		{&llm.APIError{Type: "overloaded_error"}, "overloaded"},
		{&llm.APIError{Status: 529}, "overloaded"},
		{&llm.APIError{Status: 401}, "authentication_failed"},
		{&llm.APIError{Status: 402}, "billing_error"},
		{&llm.APIError{Status: 404}, "model_not_found"},
		{&llm.APIError{Status: 400}, "invalid_request"},
		{&llm.APIError{Status: 503}, "server_error"},
		{fmt.Errorf("stream: %w", &llm.APIError{Status: 500}), "server_error"},
		{errors.New("connection reset"), "unknown"},
	} {
		if got := ErrorType(tc.err); got != tc.want {
			t.Errorf("ErrorType(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
