package session

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckID(t *testing.T) {
	long := make([]byte, maxIDLen+1)
	for i := range long {
		long[i] = 'a'
	}
	for _, tc := range []struct {
		ref  string
		want string // "" when it is an id
	}{
		{"20261203-102010-ab3c", ""},
		{"20261203", ""},
		{"s1", ""},
		{"3f2504e0-4f89-11d3-9a0c-0305e82c3301", ""},
		{"a.b_c", ""},
		{string(long[:maxIDLen]), ""},
		{"", `"" is not a session id: ` + IDShape},
		{"../x", `"../x" is not a session id: ` + IDShape},
		{"..", `".." is not a session id: ` + IDShape},
		{".hidden", `".hidden" is not a session id: ` + IDShape},
		{"/etc/passwd", `"/etc/passwd" is not a session id: ` + IDShape},
		{`a\b`, `"a\\b" is not a session id: ` + IDShape},
		{"a/b", `"a/b" is not a session id: ` + IDShape},
		{"x\x00y", `"x\x00y" is not a session id: ` + IDShape},
		{"\x1b]0;pwned\x07", `"\x1b]0;pwned\a" is not a session id: ` + IDShape},
		{"-rf", `"-rf" is not a session id: ` + IDShape},
		{"a b", `"a b" is not a session id: ` + IDShape},
		{string(long), `"` + string(long[:maxIDLen]) + `…" is not a session id: ` + IDShape},
	} {
		got := ""
		if err := CheckID(tc.ref); err != nil {
			got = err.Error()
			var ie *IDError
			if !errors.As(err, &ie) || ie.Ref != tc.ref {
				t.Errorf("CheckID(%q): %T, want an *IDError", tc.ref, err)
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("CheckID(%q) (-want +got):\n%s", tc.ref, diff)
		}
	}
}

// TestOpenAndResolveRefuseBadIDs: Open and Resolve, which every entry
// point goes through, refuse a path for an id and touch nothing outside
// the sessions directory.
func TestOpenAndResolveRefuseBadIDs(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "x.jsonl")
	const file = `{"v":1,"type":"session","time":"2026-01-01T00:00:00Z","id":"x","cwd":"/"}
{"v":1,"type":"message","time":"2026-01-01T00:00:01Z","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}
`
	if err := os.WriteFile(outside, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(Dir(base), 0o700); err != nil {
		t.Fatal(err)
	}
	var ie *IDError
	if s, err := Open(base, "../x"); !errors.As(err, &ie) {
		if s != nil {
			s.Close()
		}
		t.Errorf("Open ../x: %v, want an *IDError", err)
	}
	if id, err := Resolve(base, "../x"); !errors.As(err, &ie) || id != "" {
		t.Errorf("Resolve ../x: %q %v, want an *IDError", id, err)
	}
	if b, _ := os.ReadFile(outside); string(b) != file {
		t.Errorf("x.jsonl was written:\n%s", b)
	}
	if m, _ := filepath.Glob(filepath.Join(Dir(base), "*")); len(m) != 0 {
		t.Errorf("made in sessions/: %q", m)
	}
}
