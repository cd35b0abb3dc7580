package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/safefile"
)

// DefaultIdentity opens the system prompt unless config `identity` says
// otherwise.
const DefaultIdentity = "You are synaps, a coding agent working in the user's terminal. Use the tools to inspect and change files and run commands; prefer small, verifiable steps, and say plainly what you did."

// maxContextFile caps one AGENTS.md/CLAUDE.md in the prompt.
const maxContextFile = 64 << 10

// PromptInput is what the system prompt is built from.
type PromptInput struct {
	// Identity replaces DefaultIdentity when set (config `identity`).
	Identity string
	WorkDir  string
	// BaseDir holds the user's own AGENTS.md or CLAUDE.md.
	BaseDir string
	// SkillsIndex is the skills section (skill.Index).
	SkillsIndex string
	// PluginContext are context files plugins bring (a Gemini CLI
	// extension's GEMINI.md), each in its own section.
	PluginContext []PluginContext
	Now           time.Time
	// Warn, when set, is told of an instructions file that was cut at
	// maxContextFile or skipped (not a regular file, unreadable).
	Warn func(string)
	// Loaded, when set, is told of each instructions file the prompt
	// holds, for on_instructions_loaded (Config.Instructions).
	Loaded func(Instructions)
}

// PluginContext is one context file of a plugin.
type PluginContext struct {
	Plugin, Path string
}

// SystemPrompt assembles the system prompt: identity, environment, the
// user's and the project's instructions (AGENTS.md, else CLAUDE.md), and the
// skills index. Extension injections are added by the agent at session
// start.
func SystemPrompt(in PromptInput) string {
	var b strings.Builder
	id := strings.TrimSpace(in.Identity)
	if id == "" {
		id = DefaultIdentity
	}
	b.WriteString(id)
	b.WriteString("\n\n# Environment\n")
	fmt.Fprintf(&b, "- Working directory: %s\n- OS: %s/%s\n- Date: %s\n", in.WorkDir, runtime.GOOS, runtime.GOARCH, in.Now.Format("2006-01-02"))
	for _, src := range []struct{ title, dir, scope string }{
		{"The user's instructions", in.BaseDir, "User"},
		{"The project's instructions", in.WorkDir, "Project"},
	} {
		if src.dir == "" {
			continue
		}
		path, text, warning := contextFile(src.dir)
		if warning != "" && in.Warn != nil {
			in.Warn(warning)
		}
		if text != "" {
			fmt.Fprintf(&b, "\n# %s (%s)\n%s\n", src.title, path, text)
			if in.Loaded != nil {
				in.Loaded(Instructions{Path: path, Scope: src.scope})
			}
		}
	}
	for _, pc := range in.PluginContext {
		data, cut, err := safefile.Read(pc.Path, maxContextFile)
		if err != nil {
			if in.Warn != nil {
				in.Warn(fmt.Sprintf("plugin %s: %v; its context is not used", pc.Plugin, err))
			}
			continue
		}
		if cut && in.Warn != nil {
			in.Warn(fmt.Sprintf("%s: larger than %s; only its first %s is in the prompt", pc.Path, safefile.Size(maxContextFile), safefile.Size(maxContextFile)))
		}
		// Not an instructions file in Claude Code's sense (its memory_type
		// has no plugin scope), so on_instructions_loaded is not told.
		fmt.Fprintf(&b, "\n# Context from the plugin %s (%s)\n%s\n", pc.Plugin, pc.Path, strings.TrimSpace(string(data)))
	}
	if in.SkillsIndex != "" {
		b.WriteString("\n")
		b.WriteString(in.SkillsIndex)
	}
	return b.String()
}

// contextFile reads AGENTS.md, or CLAUDE.md when there is none, and says
// when it was cut or skipped. A cloned project's file may be a FIFO or a
// link to /dev/zero: it is read with safefile, never more than the cap.
func contextFile(dir string) (path, text, warning string) {
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		path := filepath.Join(dir, name)
		data, cut, err := safefile.Read(path, maxContextFile)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return path, "", fmt.Sprintf("%v; its instructions are not used", err)
		}
		if cut {
			warning = fmt.Sprintf("%s: larger than %s; only its first %s is in the prompt", path, safefile.Size(maxContextFile), safefile.Size(maxContextFile))
			data = append(data, []byte("\n…[truncated]")...)
		}
		return path, strings.TrimSpace(string(data)), warning
	}
	return "", "", ""
}
