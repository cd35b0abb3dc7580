package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

// TestResumeTargetBeforeAnythingStarts: a --resume ID that names no
// session, or a --continue with nothing to go on, is said before any
// extension is spawned (the "slow" fake stamps init-start when it is).
func TestResumeTargetBeforeAnythingStarts(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts Options
		want string
	}{
		{"resume", Options{Resume: "nosuch"}, "--resume"},
		{"continue", Options{Continue: true}, "--continue: no session was started in"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base, work := t.TempDir(), t.TempDir()
			dir := exttest.Plugin(t, base, "watch", nil, exttest.Spec{InitMode: "slow"})
			o := tt.opts
			o.BaseDir, o.WorkDir, o.Model, o.Getenv = base, work, "script:turns.jsonl", noEnv
			a, err := Open(context.Background(), o)
			if err == nil {
				a.Close(context.Background())
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to say %q", err, tt.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "init-start")); err == nil {
				t.Error("an extension was started before the error")
			}
		})
	}
}
