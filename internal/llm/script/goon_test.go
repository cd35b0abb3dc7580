package script

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/llm"
)

// GoOnAfter(n) makes the next turn the (n+1)th; beyond the script (or
// below zero) it is clamped, so the next request says the script is used
// up (or starts at the first line).
func TestGoOnAfter(t *testing.T) {
	const script = `{"text": "one"}
{"text": "two"}
{"text": "three"}`
	tests := []struct {
		name     string
		n        int
		want     string // the next turn's text; "" when used up
		remained int
	}{
		{"from the start", 0, "one", 3},
		{"after one", 1, "two", 2},
		{"after two", 2, "three", 1},
		{"used up", 3, "", 0},
		{"beyond", 10, "", 0},
		{"negative", -1, "one", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("t.jsonl", []byte(script))
			if err != nil {
				t.Fatal(err)
			}
			p.GoOnAfter(tt.n)
			if diff := cmp.Diff(tt.remained, p.Remaining()); diff != "" {
				t.Errorf("Remaining (-want +got):\n%s", diff)
			}
			resp, err := p.Complete(context.Background(), &llm.Request{}, nil)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("played %v; want the used-up error", resp.Message.Content)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, resp.Message.Content[0].Text); diff != "" {
				t.Errorf("next turn (-want +got):\n%s", diff)
			}
		})
	}
}
