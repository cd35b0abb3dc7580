package plural

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		word string
		want string
	}{
		{0, "message", "0 messages"},
		{1, "message", "1 message"},
		{2, "message", "2 messages"},
		{1, "match", "1 match"},
		{3, "match", "3 matches"},
		{2, "box", "2 boxes"},
		{2, "bus", "2 buses"},
		{2, "crash", "2 crashes"},
		{2, "entry", "2 entries"},
		{2, "key", "2 keys"},
		{-1, "line", "-1 lines"},
		{2, "hook subscription", "2 hook subscriptions"},
	} {
		if diff := cmp.Diff(tc.want, Count(tc.n, tc.word)); diff != "" {
			t.Errorf("Count(%d, %q) (-want +got):\n%s", tc.n, tc.word, diff)
		}
	}
}

func TestPick(t *testing.T) {
	got := []string{Pick(1, "plugin has", "plugins have"), Pick(2, "plugin has", "plugins have"), Pick(0, "was", "were")}
	if diff := cmp.Diff([]string{"plugin has", "plugins have", "were"}, got); diff != "" {
		t.Errorf("Pick (-want +got):\n%s", diff)
	}
}
