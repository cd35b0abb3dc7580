package host

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/synaps-cli/synaps/internal/host/hosttest"
)

type reply = hosttest.Reply
type request = hosttest.Request
type message = hosttest.Message

// openSession opens a session of h with its model at srv.
func openSession(t *testing.T, h *Host, srv *hosttest.ModelServer) *Session {
	t.Helper()
	s, err := h.Open(context.Background(), srv.Options(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
