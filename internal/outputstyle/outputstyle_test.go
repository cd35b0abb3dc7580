package outputstyle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadAndFind(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	write("terse.md", "---\nname: Terse\ndescription: \"Short answers\"\nkeep-coding-instructions: true\n---\n\nFive words at most.\n")
	write("plain.md", "Say it plainly.\n")
	write("open.md", "---\nname: x\nNo end.\n")
	write("empty.md", "---\nname: e\n---\n")
	styles, warnings := LoadPath(dir, "user")
	var got []string
	for _, s := range styles {
		got = append(got, s.Name+"|"+s.Description+"|"+s.Prompt)
	}
	if d := cmp.Diff([]string{"plain||Say it plainly.", "Terse|Short answers|Five words at most."}, got); d != "" {
		t.Errorf("styles (-want +got):\n%s", d)
	}
	if !styles[1].KeepCoding {
		t.Error("keep-coding-instructions not read")
	}
	if len(warnings) != 2 || !strings.Contains(strings.Join(warnings, "\n"), "open.md: the frontmatter's --- block is not closed") || !strings.Contains(strings.Join(warnings, "\n"), "empty.md: the style has no text") {
		t.Errorf("warnings: %q", warnings)
	}

	styles = append(styles, Style{Name: "kit:terse"}, Style{Name: "kit:tutor"})
	if s, ok, _ := Find(styles, "terse"); !ok || s.Name != "Terse" {
		t.Errorf("exact name, any case: %v %v", s.Name, ok)
	}
	if s, ok, _ := Find(styles, "tutor"); !ok || s.Name != "kit:tutor" {
		t.Errorf("a plugin's by its bare name: %v %v", s.Name, ok)
	}
	if _, ok, why := Find(styles, "nope"); ok || why != `no output style "nope"; there are: default, plain, Terse, kit:terse, kit:tutor` {
		t.Errorf("unknown: %q", why)
	}
}
