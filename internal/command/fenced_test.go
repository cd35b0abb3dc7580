package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFencedBang: a ```! block runs as one bash command, the plugin
// variables and quoted arguments in place, its output in its place;
// other fences are text.
func TestFencedBang(t *testing.T) {
	c := &Command{body: "Setup:\n\n```!\n\"${CLAUDE_PLUGIN_ROOT}/s.sh\" $ARGUMENTS\n```\n\n```sh\nnot run\n```\nkeep ${CLAUDE_PLUGIN_DATA}",
		PluginVars: PluginVars{Root: "/p", Data: "/d"}}
	var ran []string
	got := c.Expand(context.Background(), "a; b", Env{Bash: func(_ context.Context, line string) string {
		ran = append(ran, line)
		return "OUT\n"
	}})
	if diff := cmp.Diff([]string{`"/p/s.sh" 'a;' b`}, ran); diff != "" {
		t.Errorf("ran (-want +got):\n%s", diff)
	}
	want := "Setup:\n\nOUT\n\n```sh\nnot run\n```\nkeep /d"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("prompt (-want +got):\n%s", diff)
	}
}
