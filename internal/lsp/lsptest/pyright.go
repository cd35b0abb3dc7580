package lsptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// PyrightVersion is the pyright .ci/run installs (npm, into .ci/npm).
const PyrightVersion = "1.1.414"

// Pyright finds pyright's language server: $SYNAPS_PYRIGHT,
// pyright-langserver on PATH, or the copy .ci/run installs under the
// repository's .ci/npm. Without it (or without node) the test is
// skipped, saying how to install it.
func Pyright(t testing.TB) string {
	t.Helper()
	p := PyrightPath()
	if p == "" {
		t.Skip(PyrightMissing)
	}
	return p
}

// PyrightMissing is what a test skipped for want of pyright says.
const PyrightMissing = "pyright is not installed: run .ci/run, or npm install --prefix .ci/npm pyright@" + PyrightVersion

// PyrightPath is where Pyright finds the server, "" when nowhere.
func PyrightPath() string {
	if p := os.Getenv("SYNAPS_PYRIGHT"); p != "" {
		return p
	}
	if p, err := exec.LookPath("pyright-langserver"); err == nil {
		return p
	}
	if _, err := exec.LookPath("node"); err == nil {
		_, file, _, _ := runtime.Caller(0)
		p := filepath.Join(filepath.Dir(file), "..", "..", "..", ".ci", "npm", "node_modules", ".bin", "pyright-langserver")
		if _, err := os.Stat(p); err == nil {
			abs, _ := filepath.Abs(p)
			return abs
		}
	}
	return ""
}
