package lsp

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkWarmEdit is what an edit of a file costs once its server is
// running: didChange, the fake's publishDiagnostics, the new errors.
func BenchmarkWarmEdit(b *testing.B) {
	dir := b.TempDir()
	m := NewManager([]Server{fakeServer("ok")}, Options{WorkDir: dir})
	defer m.Close()
	path := filepath.Join(dir, "a.fk")
	if rep := m.Diagnose(b.Context(), path, nil, "start\n"); rep == nil || rep.Err != nil {
		b.Fatalf("%+v", rep)
	}
	b.ResetTimer()
	for i := range b.N {
		text := fmt.Sprintf("line %d\nx error: e%d\n", i, i%2)
		rep := m.Diagnose(b.Context(), path, nil, text)
		if rep == nil || rep.TimedOut || rep.Errors != 1 {
			b.Fatalf("%+v", rep)
		}
	}
}
