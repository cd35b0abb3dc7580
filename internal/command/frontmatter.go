package command

import "strings"

// Claude Code reads a frontmatter value that runs on over unindented
// lines: Anthropic's plugin-dev agents write `description: ... Examples:`
// followed by <example> blocks whose lines ("Context: ...", "user: ...")
// look like keys but are text. parseFrontmatter folds such lines into the
// value they follow, until a line starting with a key Claude Code's
// commands, agents or skills define (knownKeys), which starts the next
// field.

// knownKeys are the frontmatter fields of Claude Code's commands, agents
// and skills, case-sensitive as there ("Context:" in an example is text).
var knownKeys = map[string]bool{
	"name": true, "description": true, "model": true, "color": true, "tools": true,
	"disallowedTools": true, "allowed-tools": true, "argument-hint": true, "permissionMode": true,
	"skills": true, "hooks": true, "effort": true, "maxTurns": true, "memory": true,
	"background": true, "isolation": true, "initialPrompt": true, "mcpServers": true,
	"version": true, "license": true, "when_to_use": true, "disable-model-invocation": true,
	"user-invocable": true, "context": true, "agent": true, "paths": true, "shell": true,
	"arguments": true,
}

// knownKey reports whether the trimmed line t starts with a known field
// ("model: inherit").
func knownKey(t string) bool {
	k, _, ok := strings.Cut(t, ":")
	return ok && knownKeys[strings.TrimSpace(k)]
}
