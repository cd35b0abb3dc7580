package app

import (
	"testing"

	"github.com/synaps-cli/synaps/internal/plugin"
)

// TestKeyName: SynapsCLI's key notation in the UI's key names.
func TestKeyName(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"C-y", "ctrl+y", ""},
		{"C-Y", "ctrl+y", ""},
		{"A-S-x", "alt+shift+x", ""},
		{"F8", "f8", ""},
		{"S-F12", "shift+f12", ""},
		{"C-Space", "ctrl+ ", ""},
		{"PgDn", "pgdown", ""},
		{"C--", "ctrl+-", ""},
		{"x", "", `a plain character "x" would be typed into the input; add C- or A-`},
		{"M-x", "", `unknown modifier "M" (use C-, A-, S-)`},
		{"C-Banana", "", `unknown key "Banana"`},
	}
	for _, tc := range tests {
		got, err := KeyName(tc.in)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tc.want || gotErr != tc.err {
			t.Errorf("KeyName(%q) = %q, %q; want %q, %q", tc.in, got, gotErr, tc.want, tc.err)
		}
	}
}

// TestBindKey: a key synaps uses, or one a plugin took first, is not
// bound, and says why.
func TestBindKey(t *testing.T) {
	a := &App{}
	for _, k := range []struct{ id, key string }{{"p1", "C-y"}, {"p2", "C-y"}, {"p2", "C-c"}, {"p2", "Tab"}, {"p2", "x"}, {"p3", "A-h"}} {
		a.Keys = append(a.Keys, a.bindKey(k.id, "", plugin.Keybind{Key: k.key, Action: "inject_prompt", Prompt: "x"}))
	}
	want := []string{"", "already bound by plugin p1", "conflicts with synaps's own ctrl+c", "conflicts with synaps's own tab",
		`invalid notation: a plain character "x" would be typed into the input; add C- or A-`, ""}
	for i, k := range a.Keys {
		if k.Refused != want[i] {
			t.Errorf("%s %s: refused %q, want %q", k.Plugin, k.Key, k.Refused, want[i])
		}
	}
}
