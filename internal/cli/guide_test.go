package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// guidePath is the extension-authoring guide, verbatim: the text new
// authors follow word for word, shipped as the built-in skill. Its code is
// not copied anywhere else in the tests; writeGuideFixture cuts it out of
// this file, so a guide edit that breaks an author breaks the tests.
const guidePath = "../../builtin/skills/extension-authoring/SKILL.md"

// guideFixture is what an author has after following the guide: the
// files of steps 1–6 and the shell commands of step 7.
type guideFixture struct {
	manifest []byte // step 1, .synaps-plugin/plugin.json
	main     []byte // steps 2–6 in order, main.py
	step7    map[string]string
}

// parseGuide cuts the guide into its steps and takes each step's code
// blocks as an author would copy them.
func parseGuide(doc string) (*guideFixture, error) {
	heading := regexp.MustCompile(`(?m)^## Step (\d+) — .*$`)
	fence := regexp.MustCompile("(?s)```(\\w*)\\n(.*?)```")
	locs := heading.FindAllStringSubmatchIndex(doc, -1)
	steps := map[string]string{}
	for i, l := range locs {
		end := len(doc)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		steps[doc[l[2]:l[3]]] = doc[l[1]:end]
	}
	blocks := func(step, lang string) []string {
		var out []string
		for _, m := range fence.FindAllStringSubmatch(steps[step], -1) {
			if m[1] == lang {
				out = append(out, m[2])
			}
		}
		return out
	}
	f := &guideFixture{step7: map[string]string{}}
	if b := blocks("1", "json"); len(b) == 1 {
		f.manifest = []byte(b[0])
	} else {
		return nil, fmt.Errorf("step 1 has %d json blocks, want 1", len(b))
	}
	var code []string
	for _, step := range []string{"2", "3", "4", "5", "6"} {
		b := blocks(step, "python")
		if len(b) != 1 {
			return nil, fmt.Errorf("step %s has %d python blocks, want 1", step, len(b))
		}
		code = append(code, b[0])
	}
	f.main = []byte(strings.Join(code, "\n"))
	b := blocks("7", "bash")
	if len(b) != 1 {
		return nil, fmt.Errorf("step 7 has %d bash blocks, want 1", len(b))
	}
	// The block holds "# Option A: …" and "# Option B: …", each followed
	// by its command: alternatives, so each becomes its own script.
	option := ""
	for _, line := range strings.Split(b[0], "\n") {
		if m := regexp.MustCompile(`^# Option (\w)`).FindStringSubmatch(line); m != nil {
			option = m[1]
		}
		if option != "" && strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "#") {
			f.step7[option] += line + "\n"
		}
	}
	if f.step7["A"] == "" || f.step7["B"] == "" {
		return nil, fmt.Errorf("step 7 has no option A and B commands: %q", b[0])
	}
	return f, nil
}

// writeGuideFixture puts in dir:
//
//	guide/hello-ext/            the plugin of steps 1–6, verbatim
//	guide/step7-A.sh, -B.sh     step 7's two install options, verbatim
//	guide-lf/hello-ext/         the same plugin with "\n\n" ending its headers
func writeGuideFixture(dir string) error {
	doc, err := os.ReadFile(guidePath)
	if err != nil {
		return err
	}
	f, err := parseGuide(string(doc))
	if err != nil {
		return fmt.Errorf("%s: %v", guidePath, err)
	}
	write := func(path string, data []byte) error {
		path = filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, data, 0o644)
	}
	crlf := []byte(`b"\r\n\r\n" + body`)
	if n := bytes.Count(f.main, crlf); n != 1 {
		return fmt.Errorf("%s: the send helper should write %s once, found %d", guidePath, crlf, n)
	}
	lf := bytes.Replace(f.main, crlf, []byte(`b"\n\n" + body`), 1)
	for path, data := range map[string][]byte{
		"guide/hello-ext/.synaps-plugin/plugin.json":    f.manifest,
		"guide/hello-ext/main.py":                       f.main,
		"guide/step7-A.sh":                              []byte(f.step7["A"]),
		"guide/step7-B.sh":                              []byte(f.step7["B"]),
		"guide-lf/hello-ext/.synaps-plugin/plugin.json": f.manifest,
		"guide-lf/hello-ext/main.py":                    lf,
	} {
		if err := write(path, data); err != nil {
			return err
		}
	}
	return nil
}
