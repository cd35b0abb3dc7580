package scaffold

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/extension"
)

// Every scaffold, in every language, passes `synaps extensions test`
// unchanged: a tool only, hooks only, and both.
func TestScaffoldsPassConformance(t *testing.T) {
	runtimes := map[string]string{"python": "python3", "node": "node", "go": "go"}
	for _, lang := range Langs {
		for _, shape := range []Options{
			{Tool: true},
			{Hooks: []string{"before_tool_call", "after_tool_call"}},
			{Tool: true, Hooks: []string{"before_message", "on_session_start"}},
		} {
			name := lang + "-" + strings.Join(append(shape.Hooks, map[bool]string{true: "tool", false: ""}[shape.Tool]), "-")
			t.Run(name, func(t *testing.T) {
				if _, err := exec.LookPath(runtimes[lang]); err != nil {
					t.Skipf("%s not installed", runtimes[lang])
				}
				dir := filepath.Join(t.TempDir(), "my-ext")
				o := shape
				o.Name, o.Lang = "my-ext", lang
				if _, err := Write(dir, o); err != nil {
					t.Fatal(err)
				}
				rep := extension.Conformance(context.Background(), dir, extension.ConformanceOptions{Timeout: 60 * time.Second})
				for _, c := range rep.Checks {
					if c.Status != extension.CheckPass {
						t.Errorf("%s: %s: %s", c.Status, c.Name, c.Detail)
					}
				}
				if !rep.Passed {
					t.Errorf("stderr: %v", rep.Stderr)
				}
			})
		}
	}
}

func TestWriteRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Name: "Bad Name", Lang: "python"}, "lowercase letters"},
		{Options{Name: "ok", Lang: "ruby"}, "choose python, node or go"},
		{Options{Name: "ok", Lang: "go", Hooks: []string{"before_everything"}}, `"before_everything" is not a hook`},
	} {
		if _, err := Write(filepath.Join(dir, "x"), tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Write(%+v) = %v, want %q", tc.o, err, tc.want)
		}
	}
	if _, err := Write(dir, Options{Name: "ok", Lang: "go"}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("existing dir: %v", err)
	}
}
