package tui

import "testing"

func TestTrustChoice(t *testing.T) {
	cases := []struct {
		in       string
		ok, once bool
	}{
		{"y", true, false}, {"YES", true, false}, {"trust", true, false},
		{"o", true, true}, {" once ", true, true},
		{"", false, false}, {"n", false, false}, {"yo", false, false},
	}
	for _, c := range cases {
		ok, once := trustChoice(c.in)
		if ok != c.ok || once != c.once {
			t.Errorf("trustChoice(%q) = %v, %v; want %v, %v", c.in, ok, once, c.ok, c.once)
		}
	}
}
