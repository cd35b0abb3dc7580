package scaffold

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/conformance"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/plugin"
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
				// The default deadlines: a scaffold answers initialize at
				// once, with no compile on its first start.
				rep := conformance.Run(context.Background(), dir, conformance.Options{})
				for _, c := range rep.Checks {
					if c.Status != conformance.CheckPass {
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
		{Options{Name: "ok", Lang: "go", Hooks: []string{"before_everything"}}, `"before_everything" is not a hook; choose one of before_tool_call, after_tool_call,`},
	} {
		if _, err := Write(filepath.Join(dir, "x"), tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Write(%+v) = %v, want %q", tc.o, err, tc.want)
		}
	}
	if _, err := Write(dir, Options{Name: "ok", Lang: "go"}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("existing dir: %v", err)
	}
}

// A Go scaffold is built when it is written and its manifest starts the
// binary: `go run .` compiled at every start, and on a cold build cache
// the first start outlasted the initialize deadline.
func TestGoScaffoldIsBuilt(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not installed")
	}
	dir := filepath.Join(t.TempDir(), "go-ext")
	files, err := Write(dir, Options{Name: "go-ext", Lang: "go", Tool: true})
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "go-ext")
	if !slices.Contains(files, bin) {
		t.Errorf("files %v do not list the binary", files)
	}
	if info, err := os.Stat(bin); err != nil || info.Mode()&0o111 == 0 {
		t.Fatalf("binary not built: %v", err)
	}
	p := plugin.LoadPlugin("go-ext", dir, plugin.ScopeUser)
	if p.Err != nil {
		t.Fatal(p.Err)
	}
	if got := p.Manifest.Extension.EntryPoint; got != "./go-ext" {
		t.Errorf("entry_point = %q, want ./go-ext", got)
	}
	if err := extension.CheckLaunch(p, nil); err != nil {
		t.Error(err)
	}
	readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	if !strings.Contains(string(readme), "go build -o go-ext .") {
		t.Errorf("README does not say how to rebuild:\n%s", readme)
	}
}

// A Go scaffold that cannot be built says so, with the files written and
// the command that finishes the job.
func TestGoScaffoldWithoutGo(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	dir := filepath.Join(t.TempDir(), "go-ext")
	files, err := Write(dir, Options{Name: "go-ext", Lang: "go", Tool: true})
	if err == nil || !strings.Contains(err.Error(), "needs the go command, which is not on PATH") || !strings.Contains(err.Error(), "go build -o go-ext .") {
		t.Errorf("err = %v", err)
	}
	if len(files) == 0 {
		t.Error("no files reported as written")
	}
}
