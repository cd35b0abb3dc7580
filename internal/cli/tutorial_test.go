package cli

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"strings"
)

// tutorialScript turns docs/extensions/tutorial.md into one bash script:
// every ```sh block in order, and every listing marked
// file=examples/extensions/hello-ext/F written to hello-ext/F where the
// tutorial shows it. Blocks marked skip-run (they need a synaps checkout) are left
// out; of the blocks marked "option A" and "option B" only the chosen one
// runs. testdata/script/tutorial.txtar runs the result, so a tutorial
// command that stops working fails the tests.
func tutorialScript(doc, option string) (string, error) {
	fence := regexp.MustCompile("(?m)^```(\\w*)\\n")
	marker := regexp.MustCompile(`<!--\s*(.*?)\s*-->\s*$`)
	var b strings.Builder
	b.WriteString("set -euo pipefail\nset -x\nTUTORIAL_ROOT=$(pwd)\n")
	rest := doc
	offset := 0
	blocks := 0
	for {
		loc := fence.FindStringSubmatchIndex(rest)
		if loc == nil {
			break
		}
		lang := rest[loc[2]:loc[3]]
		bodyStart := loc[1]
		end := strings.Index(rest[bodyStart:], "\n```")
		if end < 0 {
			return "", fmt.Errorf("unclosed fence at byte %d", offset+loc[0])
		}
		body := rest[bodyStart : bodyStart+end+1]
		before := strings.TrimRight(rest[:loc[0]], "\n")
		var mark string
		if i := strings.LastIndexByte(before, '\n'); i >= 0 {
			if m := marker.FindStringSubmatch(before[i+1:]); m != nil {
				mark = m[1]
			}
		}
		next := bodyStart + end + 4
		offset += next
		rest = rest[next:]

		switch {
		case strings.HasPrefix(mark, "skip-run"):
		case strings.HasPrefix(mark, "option ") && mark != "option "+option:
		case lang == "sh":
			b.WriteString(body)
			blocks++
		default:
			if f := regexp.MustCompile(`file=examples/extensions/hello-ext/(\S+)`).FindStringSubmatch(mark); f != nil {
				name := path.Clean(f[1])
				// The listings belong in the plugin directory, wherever
				// the reader's shell is at that point.
				dst := "$TUTORIAL_ROOT/hello-ext/" + name
				fmt.Fprintf(&b, "mkdir -p \"$(dirname %s)\"\ncat > \"%s\" <<'SYNAPS_TUTORIAL_EOF'\n%sSYNAPS_TUTORIAL_EOF\n", dst, dst, body)
				blocks++
			}
		}
	}
	if blocks < 5 {
		return "", fmt.Errorf("found only %d runnable blocks in the tutorial", blocks)
	}
	b.WriteString("echo TUTORIAL-DONE\n")
	return b.String(), nil
}

// writeTutorialScripts puts tutorial-A.sh and tutorial-B.sh in dir.
func writeTutorialScripts(dir string) error {
	doc, err := os.ReadFile("../../docs/extensions/tutorial.md")
	if err != nil {
		return err
	}
	for _, opt := range []string{"A", "B"} {
		s, err := tutorialScript(string(doc), opt)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path.Join(dir, "tutorial-"+opt+".sh"), []byte(s), 0o755); err != nil {
			return err
		}
	}
	return nil
}
