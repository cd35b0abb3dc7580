package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/lsp/lsptest"
)

func TestCIPinsPyright(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "pyright@"+lsptest.PyrightVersion) {
		t.Errorf(".ci/run does not install pyright@%s", lsptest.PyrightVersion)
	}
}

// A real language server: pyright reports the type error an edit
// brings, and only that one (the file's older error is not new).
func TestPyright(t *testing.T) {
	bin := lsptest.Pyright(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "app.py")
	before := "import nosuchmodule\n\ndef double(n: int) -> int:\n    return n * 2\n"
	after := before + "\ncount: int = double(\"three\")\n"
	if err := os.WriteFile(path, []byte(after), 0o644); err != nil {
		t.Fatal(err)
	}
	sv := Server{Name: "python", Command: bin, Args: []string{"--stdio"}, Extensions: map[string]string{".py": "python"}, File: "test", MaxRestarts: 1}
	m := NewManager([]Server{sv}, Options{WorkDir: dir, Getenv: os.Getenv})
	defer m.Close()
	rep := m.Diagnose(t.Context(), path, &before, after)
	if rep == nil || rep.Err != nil || rep.TimedOut {
		t.Fatalf("%+v", rep)
	}
	txt := rep.Text()
	if len(rep.New) != 1 || !strings.Contains(txt, `app.py:6:21: Argument of type "Literal['three']" cannot be assigned to parameter "n" of type "int"`) {
		t.Errorf("want the one new type error, got:\n%s", txt)
	}
	if rep.Errors != 2 || !strings.Contains(txt, "(1 more it had before)") {
		t.Errorf("errors %d (want the import's too):\n%s", rep.Errors, txt)
	}
}
