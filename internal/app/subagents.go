package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/claude"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/llm"
)

// openSubagents offers the agent tool: the agent definitions found
// (openAgents) become its agent types, beside general-purpose. A project's
// definition wins over the user's of the same name, as in Claude Code; a
// plugin's is named plugin:name (a bare name works when only one plugin
// has it).
func (a *App) openSubagents() error {
	var defs []agent.Definition
	at := map[string]int{}
	for _, ag := range a.Agents {
		name := ag.Name
		if ag.Plugin != "" {
			name = ag.Plugin + ":" + ag.Name
		}
		d := agent.Definition{Name: name, Description: ag.Description, Model: ag.Model, Tools: ag.Tools, Prompt: ag.Prompt,
			MaxTurns: ag.MaxTurns, MaxTokens: ag.MaxTokens, File: ag.File}
		if i, ok := at[name]; ok {
			defs[i] = d
			continue
		}
		at[name] = len(defs)
		defs = append(defs, d)
	}
	a.subagents = &agent.Subagents{
		Definitions: defs,
		Resolve:     a.resolveAgentModel,
		ToolName:    claude.SynapsName,
		MaxParallel: a.configInt(config.KeySubagentMaxParallel),
		MaxTurns:    a.configInt(config.KeySubagentMaxTurns),
		MaxTokens:   a.configInt(config.KeySubagentMaxTokens),
	}
	if !a.opts.offers(agent.AgentToolName) {
		return nil
	}
	_, err := a.Tools.Add(a.subagents.Tool())
	return err
}

// configInt reads a positive whole number from the config; a value that
// is not one is a note naming the file and key, and the default is used.
func (a *App) configInt(key string) int {
	v, ok := a.Config.Get(key)
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		a.Notes = append(a.Notes, fmt.Sprintf("%s: %s = %q is not a whole number of 0 or more, so the default is used; write e.g. `%s = 4`", a.Config.Path, key, v, key))
		return 0
	}
	return n
}

// claudeModels are the model names Claude Code's agent files use
// (model: sonnet), as synaps names them.
var claudeModels = map[string]string{
	"sonnet": "anthropic/claude-sonnet-4-5",
	"opus":   "anthropic/claude-opus-4-1",
	"haiku":  "anthropic/claude-haiku-4-5",
}

// resolveAgentModel is the provider of an agent definition's model.
// Claude's sonnet, opus and haiku are Anthropic's models when the session
// runs on Anthropic; on another provider the child runs on the session's
// model, and says so.
func (a *App) resolveAgentModel(name string) (llm.Provider, string, string, error) {
	if full, ok := claudeModels[name]; ok {
		kind, _, _ := llm.ParseModel(a.Model)
		if kind != llm.KindAnthropic {
			return nil, "", fmt.Sprintf("it asks for Claude's %s; this session runs on %s, which answers it instead", name, a.Model), nil
		}
		name = full
	}
	p, id, err := ResolveModel(name, a.opts.Getenv, a.Config, a.Host, a.WorkDir)
	return p, id, "", err
}
