package claude

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An mcp_tool hook's input: ${path} in its strings is the payload's
// field, a string as it is, anything else as JSON, a missing one "".
func TestMCPArgs(t *testing.T) {
	payload := []byte(`{"cwd":"/p","tool_input":{"file_path":"/p/a b.go","limit":3,"flags":["x"]}}`)
	for _, tc := range []struct {
		name  string
		input map[string]any
		want  string
	}{
		{"none is {}", nil, `{}`},
		{"a string field", map[string]any{"path": "${tool_input.file_path}"}, `{"path":"/p/a b.go"}`},
		{"in the middle, twice", map[string]any{"t": "${cwd}:${cwd}/x"}, `{"t":"/p:/p/x"}`},
		{"a number and a list as JSON", map[string]any{"n": "${tool_input.limit}", "f": "${tool_input.flags}"}, `{"f":"[\"x\"]","n":"3"}`},
		{"missing is empty", map[string]any{"m": "<${tool_input.nope}>"}, `{"m":"\u003c\u003e"}`},
		{"nested and other types kept", map[string]any{"o": map[string]any{"p": "${cwd}"}, "l": []any{"${cwd}", 1.0}, "b": true}, `{"b":true,"l":["/p",1],"o":{"p":"/p"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mcpArgs(tc.input, payload)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Header values name only the variables allowedEnvVars lists; others
// read as "".
func TestExpandHeader(t *testing.T) {
	env := map[string]string{"TOKEN": "s3", "SECRET": "no"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for _, tc := range []struct{ in, want string }{
		{"Bearer $TOKEN", "Bearer s3"},
		{"Bearer ${TOKEN}", "Bearer s3"},
		{"${TOKEN}-$SECRET-${SECRET}", "s3--"},
		{"$UNSET plain", " plain"},
		{"no refs", "no refs"},
		{"$$TOKEN", "$s3"},
	} {
		if got := expandHeader(tc.in, []string{"TOKEN"}, lookup); got != tc.want {
			t.Errorf("expandHeader(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
