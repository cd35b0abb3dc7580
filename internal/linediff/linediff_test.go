package linediff

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// apply replays a script on a and checks it against b, returning the
// script as "-x", "+y", " z" lines.
func render(a, b []string, script []Edit) []string {
	var out []string
	for _, e := range script {
		switch e.Op {
		case Equal:
			out = append(out, " "+a[e.A])
		case Delete:
			out = append(out, "-"+a[e.A])
		case Insert:
			out = append(out, "+"+b[e.B])
		}
	}
	return out
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want []string
	}{
		{"", "", nil},
		{"a", "a", []string{" a"}},
		{"", "a,b", []string{"+a", "+b"}},
		{"a,b", "", []string{"-a", "-b"}},
		{"a,b,c", "a,x,c", []string{" a", "-b", "+x", " c"}},
		{"a,b,c,d", "a,c,d,e", []string{" a", "-b", " c", " d", "+e"}},
		{"x,a,b", "a,b,y", []string{"-x", " a", " b", "+y"}},
		{"a,b,c,a,b,b,a", "c,b,a,b,a,c", nil}, // Myers' paper: checked by length below
	} {
		a, b := lines(tc.a), lines(tc.b)
		got, ok := Lines(a, b, 100)
		if !ok {
			t.Fatalf("%q -> %q: not ok", tc.a, tc.b)
		}
		// Every script must turn a into b.
		var olds, news []string
		for _, e := range got {
			if e.Op != Insert {
				olds = append(olds, a[e.A])
			}
			if e.Op != Delete {
				news = append(news, b[e.B])
			}
		}
		if d := cmp.Diff(a, olds); d != "" && len(a) > 0 {
			t.Errorf("%q -> %q: old side (-want +got):\n%s", tc.a, tc.b, d)
		}
		if d := cmp.Diff(b, news); d != "" && len(b) > 0 {
			t.Errorf("%q -> %q: new side (-want +got):\n%s", tc.a, tc.b, d)
		}
		if tc.want == nil && tc.a == "a,b,c,a,b,b,a" {
			changes := 0
			for _, e := range got {
				if e.Op != Equal {
					changes++
				}
			}
			if changes != 5 {
				t.Errorf("Myers' example: %d changes, want the shortest, 5: %q", changes, render(a, b, got))
			}
			continue
		}
		if d := cmp.Diff(tc.want, render(a, b, got)); d != "" {
			t.Errorf("%q -> %q (-want +got):\n%s", tc.a, tc.b, d)
		}
	}
}

// More changes than maxD: no script, whatever the size of the inputs.
func TestLinesBounded(t *testing.T) {
	a := make([]string, 5000)
	b := make([]string, 5000)
	for i := range a {
		a[i], b[i] = "a"+string(rune('0'+i%10)), "b"+string(rune('0'+i%10))
	}
	if s, ok := Lines(a, b, 50); ok || s != nil {
		t.Errorf("10000 changes within maxD 50: ok=%v, %d edits", ok, len(s))
	}
	if _, ok := Lines(a[:20], b[:20], 50); !ok {
		t.Errorf("40 changes within maxD 50 not found")
	}
}
