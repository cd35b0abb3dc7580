package synaps

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The shipped skill is the authoring guide word for word, so its links are
// the guide's: {baseDir}/../../../docs/…, "paths relative to the repo
// root", and a section of the tutorial by name. Each must resolve both in
// the repository and in the embedded copy that synaps writes out, which
// keeps the repository's layout; nothing else says where the docs are.
func TestShippedGuideLinksResolve(t *testing.T) {
	skillDir := path.Join(SkillsDir, "extension-authoring")
	data, err := os.ReadFile(filepath.FromSlash(skillDir + "/SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	guide := string(data)

	links := regexp.MustCompile("\\{baseDir\\}/([^`\\s)]+)").FindAllStringSubmatch(guide, -1)
	if len(links) == 0 {
		t.Fatal("the guide has no {baseDir} link")
	}
	for _, l := range links {
		rel := path.Clean(path.Join(skillDir, l[1]))
		if _, err := os.Stat(filepath.FromSlash(rel)); err != nil {
			t.Errorf("{baseDir}/%s: not in the repository: %v", l[1], err)
		}
		if _, err := fs.Stat(Shipped, rel); err != nil {
			t.Errorf("{baseDir}/%s: not shipped: %v", l[1], err)
		}
	}

	_, table, ok := strings.Cut(guide, "All paths relative to the repo root")
	if !ok {
		t.Fatal("the guide has no table of paths relative to the repo root")
	}
	rows := regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(table, -1)
	if len(rows) == 0 {
		t.Fatal("no paths in the guide's reference table")
	}
	for _, r := range rows {
		if _, err := os.Stat(filepath.FromSlash(r[1])); err != nil {
			t.Errorf("reference table: %s: %v", r[1], err)
		}
		if _, err := fs.Stat(Shipped, strings.TrimSuffix(r[1], "/")); err != nil {
			t.Errorf("reference table: %s is not shipped: %v", r[1], err)
		}
		if strings.HasPrefix(r[1], "examples/extensions/") {
			// A reference extension is whole only with its manifest.
			if _, err := fs.Stat(Shipped, path.Join(r[1], ".synaps-plugin", "plugin.json")); err != nil {
				t.Errorf("reference table: %s is shipped without its manifest: %v", r[1], err)
			}
		}
	}

	for _, m := range regexp.MustCompile("`([^`]+\\.md)` § \"([^\"]+)\"").FindAllStringSubmatch(guide, -1) {
		doc, err := os.ReadFile(filepath.FromSlash(m[1]))
		if err != nil {
			t.Errorf("%s: %v", m[1], err)
			continue
		}
		if !regexp.MustCompile("(?m)^#+ " + regexp.QuoteMeta(m[2]) + "$").Match(doc) {
			t.Errorf("%s has no section %q, which the guide sends readers to", m[1], m[2])
		}
	}
}
