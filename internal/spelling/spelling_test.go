package spelling

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "block", 5},
		{"block", "", 5},
		{"block", "block", 0},
		{"blokc", "block", 2},
		{"blck", "block", 1},
		{"modfy", "modify", 1},
		{"continu", "continue", 1},
		{"kitten", "sitting", 3},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
