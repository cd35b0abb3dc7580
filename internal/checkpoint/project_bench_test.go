package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchProject is a project of n files of 2 KiB in 50 directories.
func benchProject(b *testing.B, n int) string {
	root := b.TempDir()
	content := make([]byte, 2048)
	for i := 0; i < n; i++ {
		p := filepath.Join(root, fmt.Sprintf("d%02d", i%50), fmt.Sprintf("f%05d.go", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, content, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

// BenchmarkCommand is what a bash command costs checkpoints in a turn
// after the first, in a project of 2000 files: the turn's index (its
// contents already kept, so stat only) and the index after the command.
func BenchmarkCommand(b *testing.B) {
	root := benchProject(b, 2000)
	s := Open(b.TempDir(), "sess")
	ctx := context.Background()
	s.Begin("first", 0)
	if err := s.BeforeCommand(ctx, root, WalkAll); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Begin("p", i)
		s.BeforeCommand(ctx, root, WalkAll)
		s.AfterCommand(ctx, WalkAll)
	}
}

// BenchmarkFirstIndex is the session's first command in the same
// project: every file read and kept (4 MiB).
func BenchmarkFirstIndex(b *testing.B) {
	root := benchProject(b, 2000)
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		s := Open(b.TempDir(), "sess")
		s.Begin("first", 0)
		if err := s.BeforeCommand(ctx, root, WalkAll); err != nil {
			b.Fatal(err)
		}
	}
}
