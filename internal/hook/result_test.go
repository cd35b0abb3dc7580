package hook

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
)

// A misspelt action is treated as continue, so the user is told what was
// probably meant: the closest action the hook takes, never one it does not.
func TestNearestAction(t *testing.T) {
	before, _ := contract.LookupHook(contract.HookBeforeToolCall)
	after, _ := contract.LookupHook(contract.HookAfterToolCall)
	tests := []struct {
		name   string
		spec   contract.HookSpec
		action string
		want   string
	}{
		{"one letter missing", before, "blok", "block"},
		{"case and spaces", before, " BLOK ", "block"},
		{"modify", before, "modfy", "modify"},
		{"continue", before, "contineu", "continue"},
		{"nothing close", before, "launch", ""},
		{"not taken by the hook", after, "blok", ""},
		{"replace on after", after, "replase", "replace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, NearestAction(tt.action, tt.spec)); diff != "" {
				t.Errorf("NearestAction(%q) (-want +got):\n%s", tt.action, diff)
			}
		})
	}
}

// The decoder names the unknown action, and the error still is
// ErrUnknownAction.
func TestDecodeResultUnknownActionNamesIt(t *testing.T) {
	_, err := DecodeResult([]byte(`{"action":" Blok "}`))
	var unknown *UnknownActionError
	if !errors.As(err, &unknown) || !errors.Is(err, ErrUnknownAction) {
		t.Fatalf("err = %v, want an UnknownActionError", err)
	}
	if diff := cmp.Diff("blok", unknown.Action); diff != "" {
		t.Errorf("action (-want +got):\n%s", diff)
	}
}
