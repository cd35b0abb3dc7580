package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFrontmatterFolding: a value continued on unindented lines (as
// plugin-dev's agents write their examples) is one value; a known key
// ends it; "Context:" and "user:" inside it are text.
func TestFrontmatterFolding(t *testing.T) {
	for _, tc := range []struct {
		name, fm string
		want     map[string]string
	}{
		{"examples", "name: v\ndescription: Use it. Examples:\n\n<example>\nContext: a plugin\nuser: \"check it\"\n</example>\n\nmodel: inherit\ntools: [\"Read\"]",
			map[string]string{"name": "v", "description": "Use it. Examples:\n<example>\nContext: a plugin\nuser: \"check it\"\n</example>", "model": "inherit", "tools": `["Read"]`}},
		{"plain", "description: one\nmodel: m", map[string]string{"description": "one", "model": "m"}},
		{"indented list stays a list", "allowed-tools:\n  - Read", map[string]string{"allowed-tools": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := parseFrontmatter([]byte(tc.fm))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, m.values); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}
