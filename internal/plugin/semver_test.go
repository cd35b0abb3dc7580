package plugin

import "testing"

func TestVersionRange(t *testing.T) {
	tests := []struct {
		rng, v string
		want   bool
	}{
		{"", "9.9.9", true},
		{"*", "0.1.0", true},
		{"^2.0", "2.5.1", true},
		{"^2.0", "3.0.0", false},
		{"^2.0", "1.9.9", false},
		{"^2.0", "2.1.0-beta.1", false},
		{"^2.0.0-0", "2.0.0-beta.1", true},
		{"^0.2.3", "0.2.9", true},
		{"^0.2.3", "0.3.0", false},
		{"~2.1.0", "2.1.7", true},
		{"~2.1.0", "2.2.0", false},
		{"~2", "2.9.0", true},
		{">=1.2 <2", "1.5.0", true},
		{">=1.2 <2", "2.0.0", false},
		{">=1.2 <2", "1.1.9", false},
		{"1.x || 3.x", "3.4.0", true},
		{"1.x || 3.x", "2.4.0", false},
		{"1.2.3", "1.2.3", true},
		{"=1.2.3", "1.2.4", false},
		{"1.2", "1.2.9", true},
		{"<=1.2", "1.2.9", true},
		{"<=1.2", "1.3.0", false},
		{">1.2", "1.2.5", false},
		{">1.2", "1.3.0", true},
		{"1.0 - 2.0", "2.0.5", true},
		{"1.0 - 2.0", "2.1.0", false},
		{"^1", "v1.4.0", true},
		{"^1", "not-a-version", false},
	}
	for _, tt := range tests {
		r, err := ParseVersionRange(tt.rng)
		if err != nil {
			t.Fatalf("ParseVersionRange(%q): %v", tt.rng, err)
		}
		if got := r.Allows(tt.v); got != tt.want {
			t.Errorf("%q allows %q = %v, want %v", tt.rng, tt.v, got, tt.want)
		}
	}
	for _, bad := range []string{"^two", ">=1.2.3.4", "~1.y"} {
		if _, err := ParseVersionRange(bad); err == nil {
			t.Errorf("ParseVersionRange(%q) succeeded, want an error", bad)
		}
	}
}

// BenchmarkVersionRange: a dependency check parses a range and tests an
// installed version.
func BenchmarkVersionRange(b *testing.B) {
	for b.Loop() {
		r, _ := ParseVersionRange(">=1.2 <2 || ^3.1.0")
		r.Allows("3.4.5")
	}
}
