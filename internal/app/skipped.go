package app

import (
	"path/filepath"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/claude"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/safefile"
	"github.com/synaps-cli/synaps/internal/trust"
)

// skippedLinks are hooks that are configured here but not in the chain
// because the project is not trusted: an untrusted project's Claude
// settings files. Each call's report names them — "could not judge:
// skipped" when their matchers select the call, "not matched" when not —
// so that a user who wrote a guard there sees why it did not run, and a
// required guard among them blocks the calls it would have judged. The
// links are parsed, never run.
func (a *App) skippedLinks() []agent.SkippedLink {
	if a.projectTrusted() {
		return nil
	}
	var out []agent.SkippedLink
	for i, rel := range trust.SettingsFiles {
		key := "project"
		if i > 0 {
			key = "local"
		}
		file := filepath.Join(a.WorkDir, filepath.FromSlash(rel))
		data, err := safefile.ReadAll(file, plugin.MaxManifestSize)
		if err != nil {
			continue
		}
		h, _, err := claude.Parse(file, data)
		if err != nil || len(h.Events["PreToolUse"]) == 0 {
			continue
		}
		// Each hook by the id the listing gives it.
		h = h.WithIDs(func(event string, n int) string { return hook.ClaudeHookID(key, event, n) })
		out = append(out, agent.SkippedLink{
			Link: &claude.Link{Name: claudeProjectID, Key: key, Hooks: h, ProjectDir: a.WorkDir},
			Why:  "skipped: " + file + " is in a project that is not trusted (run `synaps trust` here, or pass --trust-project)",
		})
	}
	return out
}
