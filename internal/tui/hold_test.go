package tui

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

// TestRunThatCannotStartReleasesTheHold: a terminal UI whose program
// fails before its first frame (here its input is a closed file) lifts the
// hold on the processes before the session ends, so an extension started
// from its cached answer handles on_session_end, instead of the end
// waiting out its budget for a hold only Run's return would lift.
func TestRunThatCannotStartReleasesTheHold(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	exttest.Plugin(t, base, "ender", map[string]any{"permissions": []string{"hooks.on_session_end"}, "hooks": []map[string]any{{"hook": "on_session_end"}}},
		exttest.Spec{Init: []byte(`{"protocol_version":1,"capabilities":{"hooks":[{"hook":"on_session_end"}]}}`)})
	script := filepath.Join(dir, "script.jsonl")
	if err := os.WriteFile(script, []byte(`{"text":"unused"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := app.Options{
		Getenv: func(k string) string {
			if k == "PATH" {
				return os.Getenv(k)
			}
			return ""
		},
		BaseDir: base, WorkDir: dir, Model: "script:" + script, Version: "test",
	}
	// A first session leaves the extension's answer in the cache.
	a, err := app.Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	a.Close(context.Background())
	in, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	in.Close() // Bubble Tea cannot read it: Run fails before any frame
	if err := Run(context.Background(), opts, in, io.Discard); err == nil {
		t.Fatal("Run with a closed input: no error")
	}
	log, _ := os.ReadFile(filepath.Join(base, "extensions", "logs", "ender.log"))
	if !strings.Contains(string(log), "started from its cached answer") || strings.Contains(string(log), "did not finish") {
		t.Errorf("the cached extension did not start for the session's end:\n%s", log)
	}
}
