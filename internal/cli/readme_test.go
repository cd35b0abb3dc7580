package cli

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// writeReadmeFixture puts in dir/readme the README's one-screen plugin —
// every listing marked <!-- file=PATH --> — and its commands, the ```sh
// blocks marked <!-- run -->, as readme/run.sh. readme.txtar runs them, so
// the first plugin a newcomer copies from the README works as printed.
func writeReadmeFixture(dir string) error {
	doc, err := os.ReadFile("../../README.md")
	if err != nil {
		return err
	}
	block := regexp.MustCompile("(?s)<!-- (file=\\S+|run) -->\\n```\\w*\\n(.*?)```")
	var run strings.Builder
	files := 0
	for _, m := range block.FindAllStringSubmatch(string(doc), -1) {
		if m[1] == "run" {
			run.WriteString(m[2])
			continue
		}
		name := path.Clean(strings.TrimPrefix(m[1], "file="))
		if strings.HasPrefix(name, "..") || path.IsAbs(name) {
			return fmt.Errorf("README.md: %s points outside the fixture", m[1])
		}
		target := filepath.Join(dir, "readme", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, []byte(m[2]), 0o644); err != nil {
			return err
		}
		files++
	}
	if files < 2 || run.Len() == 0 {
		return fmt.Errorf("README.md: found %d marked files and %d bytes of marked commands; the one-screen plugin lost its markers", files, run.Len())
	}
	return os.WriteFile(filepath.Join(dir, "readme", "run.sh"), []byte("set -euo pipefail\n"+run.String()), 0o755)
}
