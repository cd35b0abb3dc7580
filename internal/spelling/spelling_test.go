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

func TestNearest(t *testing.T) {
	keys := []string{"sandbox.default", "sandbox.bash", "sandbox.plugins"}
	tests := []struct {
		name     string
		maxEdits int
		want     string
	}{
		{"sandbox.defualt", 3, "sandbox.default"},
		{"SANDBOX.BASH", 3, "sandbox.bash"}, // case aside
		{"sandbox.bsh", 0, ""},              // one edit is too many
		{"sandbox.bsh", 1, "sandbox.bash"},  // and enough
		{"sandbox.network", 3, ""},          // nothing that close
		{"sandbox.plugin", 3, "sandbox.plugins"},
	}
	for _, tt := range tests {
		if got := Nearest(tt.name, keys, tt.maxEdits); got != tt.want {
			t.Errorf("Nearest(%q, %d) = %q, want %q", tt.name, tt.maxEdits, got, tt.want)
		}
	}
}
