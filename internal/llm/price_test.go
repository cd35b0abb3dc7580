package llm

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPriceOf(t *testing.T) {
	tests := []struct {
		model  string
		want   Price
		wantOK bool
	}{
		{"claude-sonnet-4-5", prices["claude-sonnet-4"], true},
		{"anthropic/claude-sonnet-4-5-20250929", prices["claude-sonnet-4"], true},
		{"claude-opus-4-1-20250805", prices["claude-opus-4"], true},
		{"claude-opus-4-5", prices["claude-opus-4-5"], true}, // the longest prefix, not claude-opus-4
		{"openai/gpt-4o-mini", prices["gpt-4o-mini"], true},
		{"gpt-4o-2024-08-06", prices["gpt-4o"], true},
		{"o3-mini", prices["o3-mini"], true},
		{"script:demo.jsonl", Price{}, false},
		{"llama3.1:8b", Price{}, false},
	}
	for _, tt := range tests {
		got, ok := PriceOf(tt.model, nil)
		if ok != tt.wantOK || got != tt.want {
			t.Errorf("PriceOf(%q) = %+v, %v; want %+v, %v", tt.model, got, ok, tt.want, tt.wantOK)
		}
	}
	// A configured price: its own entry, by the same longest-prefix rule.
	table := Prices()
	table["anthropic/claude-sonnet-4-5"] = Price{Input: 1, Output: 2}
	if got, _ := PriceOf("claude-sonnet-4-5-20250929", table); got != (Price{Input: 1, Output: 2}) {
		t.Errorf("configured price not used: %+v", got)
	}
	if got, _ := PriceOf("claude-sonnet-4", table); got != prices["claude-sonnet-4"] {
		t.Errorf("configured price used for another model: %+v", got)
	}
}

func TestCost(t *testing.T) {
	p := Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	// 100k prompt tokens of which 80k read from the cache and 10k written
	// to it: 10k plain.
	u := Usage{InputTokens: 100_000, OutputTokens: 2_000, CacheReadTokens: 80_000, CacheWriteTokens: 10_000}
	want := (10_000*3 + 2_000*15 + 80_000*0.3 + 10_000*3.75) / 1e6
	if got := p.Cost(u); math.Abs(got-want) > 1e-12 {
		t.Errorf("Cost = %v; want %v", got, want)
	}
}

func TestParsePrice(t *testing.T) {
	tests := []struct {
		in      string
		want    Price
		wantErr string
	}{
		{"input=3 output=15 cache_read=0.3 cache_write=3.75", Price{3, 15, 0.3, 3.75}, ""},
		{"output=15, input=3", Price{Input: 3, Output: 15}, ""},
		{"input=3", Price{}, "needs at least input= and output="},
		{"input=3 output=fifteen", Price{}, "output=fifteen is not a number"},
		{"input=3 output=-1", Price{}, "output=-1 is not a number"},
		{"input=3 output=1 cached=1", Price{}, `unknown field "cached"`},
		{"3 15", Price{}, `"3" is not field=dollars`},
	}
	for _, tt := range tests {
		got, err := ParsePrice(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParsePrice(%q) error = %v; want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParsePrice(%q): %v", tt.in, err)
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("ParsePrice(%q) (-want +got):\n%s", tt.in, d)
		}
	}
}
