package plugin

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckID(t *testing.T) {
	var bad []string
	for _, id := range []string{"hello-ext", "bash_guard", "a.b", "x", "../../../x", "..", ".", "", "a/b", `a\b`, ".hidden", "a,b", "a\nb", strings.Repeat("x", 256)} {
		if CheckID(id) != nil {
			bad = append(bad, id)
		}
	}
	want := []string{"../../../x", "..", ".", "", "a/b", `a\b`, ".hidden", "a,b", "a\nb", strings.Repeat("x", 256)}
	if diff := cmp.Diff(want, bad); diff != "" {
		t.Errorf("refused ids (-want +got):\n%s", diff)
	}
}
