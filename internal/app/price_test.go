package app

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/llm"
)

// A price in config is read, and one that cannot be is a warning naming
// the file, the key and the form to write, never a silent $0.
func TestPriceTableFromConfig(t *testing.T) {
	cfg, err := config.Parse("/home/u/.synaps-cli/config", []byte(`
price.my-local-model = input=0.5 output=1
price.claude-sonnet-4 = input=3 output=fifteen
price. = input=1 output=1
`))
	if err != nil {
		t.Fatal(err)
	}
	table, warnings := priceTable(cfg)
	if got, ok := llm.PriceOf("openai/my-local-model-8b", table); !ok || got != (llm.Price{Input: 0.5, Output: 1}) {
		t.Errorf("configured price: %+v, %v", got, ok)
	}
	if got, _ := llm.PriceOf("claude-sonnet-4-5", table); got.Output != 15 {
		t.Errorf("a bad configured price replaced the built-in one: %+v", got)
	}
	want := []string{
		"/home/u/.synaps-cli/config: price.: no model named after \"price.\", so it is not used; write e.g. `price.claude-sonnet-4-5 = input=3 output=15 cache_read=0.3 cache_write=3.75` (US dollars per million tokens)",
		"/home/u/.synaps-cli/config: price.claude-sonnet-4: output=fifteen is not a number of dollars of 0 or more, so it is not used; write e.g. `price.claude-sonnet-4-5 = input=3 output=15 cache_read=0.3 cache_write=3.75` (US dollars per million tokens)",
	}
	if d := cmp.Diff(want, warnings); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
}

func TestFormatCost(t *testing.T) {
	tests := []struct {
		u    llm.Usage
		want string
	}{
		{llm.Usage{CostUSD: 0.000224}, "$0.000224"},
		{llm.Usage{CostUSD: 0.0345}, "$0.0345"},
		{llm.Usage{CostUSD: 12.3456}, "$12.35"},
		{llm.Usage{CostUSD: 0.5, Unpriced: 2}, "$0.5000+"},
		{llm.Usage{Unpriced: 3}, ""},
		{llm.Usage{}, ""},
	}
	for _, tt := range tests {
		if got := FormatCost(tt.u); got != tt.want {
			t.Errorf("FormatCost(%+v) = %q; want %q", tt.u, got, tt.want)
		}
	}
}
