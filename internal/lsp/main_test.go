package lsp

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/synaps-cli/synaps/internal/lsp/lsptest"
)

func TestMain(m *testing.M) {
	lsptest.Main()
	goleak.VerifyTestMain(m)
}

// fakeServer is the fake language server (this test binary re-run) in
// mode, serving .fk files as language "fake".
func fakeServer(mode string) Server {
	return Server{
		Name: "fake", Command: os.Args[0], Extensions: map[string]string{".fk": "fake"},
		Env: map[string]string{lsptest.EnvMode: mode}, File: "test/.lsp.json", MaxRestarts: DefaultMaxRestarts,
	}
}
