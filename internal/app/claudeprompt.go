package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/claude"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/tool"
)

// KeyClaudeSmallFastModel is the model Claude Code prompt hooks ask
// when they name none (ANTHROPIC_SMALL_FAST_MODEL, which Claude Code
// reads, wins).
const KeyClaudeSmallFastModel = "claude.small_fast_model"

// hookModel is the model a prompt or agent hook asks: its own "model",
// else ANTHROPIC_SMALL_FAST_MODEL or config claude.small_fast_model,
// else Claude's Haiku on an Anthropic session, else the session's model.
// Claude's names (haiku, claude-haiku-4-5) are Anthropic's models; on a
// session of another provider they are the session's model, as an agent
// file's are (resolveAgentModel). A scripted session's hooks take the
// script's next answer.
func (a *App) hookModel(asked string) string {
	name := asked
	if name == "" {
		name = a.opts.Getenv("ANTHROPIC_SMALL_FAST_MODEL")
	}
	if name == "" {
		name, _ = a.Config.Get(KeyClaudeSmallFastModel)
	}
	onAnthropic := false
	if kind, _, err := llm.ParseModel(a.Model); err == nil && kind == llm.KindAnthropic {
		onAnthropic = true
	}
	if name == "" {
		name = "haiku"
	}
	full, claudes := claudeModels[name]
	if !claudes && strings.HasPrefix(name, "claude-") {
		full, claudes = "anthropic/"+name, true
	}
	switch {
	case claudes && onAnthropic:
		return full
	case claudes:
		return a.Model
	}
	return name
}

// askClaudeHook answers a prompt hook (claude.Asker): one request to the
// hook's model, no tools, its text back.
func (a *App) askClaudeHook(ctx context.Context, q claude.Question) (string, error) {
	name := a.hookModel(q.Model)
	p, id := a.provider, a.modelID
	if name != a.Model || p == nil {
		var err error
		if p, id, err = ResolveModel(name, a.opts.Getenv, a.Config, a.Host, a.WorkDir); err != nil {
			return "", err
		}
	}
	if q.Agent {
		return a.runHookAgent(ctx, p, id, name, q)
	}
	req := &llm.Request{Model: id, System: q.System, MaxTokens: 1024,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: q.Prompt}}}}}
	resp, err := p.Complete(ctx, req, nil)
	if err != nil {
		return "", err
	}
	return resp.Message.Text(), nil
}

// hookAgentMaxTurns bounds an agent hook's model requests.
const hookAgentMaxTurns = 10

// runHookAgent answers an agent hook: a subagent on the hook's model
// with the session's read-only tools (read, glob, grep, ls and the like;
// never bash, edits, or the agent tool), no hooks of its own, and the
// session's permission rules; its transcript is kept in the session file
// as a subagent's. Its last answer is the verdict.
func (a *App) runHookAgent(ctx context.Context, p llm.Provider, id, name string, q claude.Question) (string, error) {
	if a.Session == nil {
		return "", errors.New("an agent hook needs a session")
	}
	tools := a.Tools.Filter(func(s tool.Spec) bool {
		return s.ReadOnly && s.RuntimeName != agent.AgentToolName && !agent.AsksUser(s.RuntimeName)
	})
	aid := fmt.Sprintf("hook-%x", time.Now().UnixNano())
	sess, err := a.Session.Child(aid, "hook-agent", "", "agent hook")
	if err != nil {
		return "", err
	}
	c := agent.New(agent.Config{Provider: p, Model: id, ProviderName: llm.ProviderName(name), System: q.System, Tools: tools,
		Session: sess, Permissions: a.Permissions, MaxTurns: hookAgentMaxTurns, Price: a.Price})
	if err := c.Send(ctx, q.Prompt); err != nil {
		return "", err
	}
	msgs := sess.View()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleAssistant {
			if t := msgs[i].Text(); strings.TrimSpace(t) != "" {
				return t, nil
			}
		}
	}
	return "", errors.New("the agent gave no answer")
}
