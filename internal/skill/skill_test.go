package skill

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeSkill(t *testing.T, root, name, content string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDiscoverAndLoad(t *testing.T) {
	project, user := t.TempDir(), t.TempDir()
	pdir := writeSkill(t, project, "deploy", "---\nname: deploy\ndescription: Ship the service\n---\nRun {baseDir}/deploy.sh\n")
	writeSkill(t, user, "deploy", "---\nname: deploy\ndescription: user copy, shadowed\n---\nx\n")
	writeSkill(t, user, "titled", "Extension Authoring\n\n---\nname: extension-authoring\ndescription: Build an extension\n---\nSee {baseDir}/../docs\n")
	writeSkill(t, user, "broken", "no frontmatter here\n")
	writeSkill(t, user, "nodesc", "---\nname: nodesc\n---\n")
	skills, problems := Discover([]Root{{Dir: project, Source: "project"}, {Dir: user, Source: "user"}, {Dir: filepath.Join(user, "missing"), Source: "x"}})
	var got []string
	for _, s := range skills {
		got = append(got, s.Name+"@"+s.Source+": "+s.Description)
	}
	want := []string{"deploy@project: Ship the service", "extension-authoring@user: Build an extension"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("skills (-want +got):\n%s", d)
	}
	if len(problems) != 2 || !strings.Contains(problems[0].Err.Error()+problems[1].Err.Error(), "no description") {
		t.Errorf("problems = %v", problems)
	}
	lt := &LoadTool{Skills: skills}
	res, _ := lt.Run(context.Background(), json.RawMessage(`{"name":"deploy"}`))
	if res.IsError || res.Output != "Run "+pdir+"/deploy.sh\n" {
		t.Errorf("load_skill = %+v", res)
	}
	res, _ = lt.Run(context.Background(), json.RawMessage(`{"name":"nope"}`))
	if !res.IsError {
		t.Errorf("unknown skill should fail: %+v", res)
	}
	if idx := Index(skills); !strings.Contains(idx, "- deploy: Ship the service") || !strings.Contains(idx, "load_skill") {
		t.Errorf("index = %q", idx)
	}
}
