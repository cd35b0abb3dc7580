package app

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// Trust adds dir to $SYNAPS_BASE_DIR/trusted-projects, so its
// .synaps/plugins are loaded from now on. It reports whether the
// directory was newly added.
func Trust(baseDir, dir string) (bool, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false, err
	}
	// The file holds one path a line: a newline in a name would trust
	// the path after it too. Nothing is trimmed, on write or on read.
	if err := plugin.CheckTrustPath(abs); err != nil {
		return false, err
	}
	ok, err := plugin.IsTrusted(baseDir, abs)
	if err != nil || ok {
		return false, err
	}
	if err := os.MkdirAll(baseDir, 0o755); err != nil {
		return false, err
	}
	f, err := os.OpenFile(filepath.Join(baseDir, plugin.TrustedProjectsFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if _, err := fmt.Fprintln(f, abs); err != nil {
		return false, err
	}
	return true, nil
}

// UntrustedCount is how many project plugins wait for trust.
func UntrustedCount(sts []extension.Status) int {
	n := 0
	for _, s := range sts {
		if s.State == extension.StateUntrusted {
			n++
		}
	}
	return n
}
