package app

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm/anthropic"
	"github.com/synaps-cli/synaps/internal/llm/openai"
	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

// openTodos registers the tools Claude plugins assume beside the file
// tools: todo_write (Claude's TodoWrite) with the session's task list,
// whose changes fire on_task_created and on_task_completed (Claude's
// TaskCreated and TaskCompleted), web_fetch (WebFetch) and web_search
// (WebSearch).
func (a *App) openTodos() error {
	a.Todos = &builtin.Todos{Fire: a.fireTask}
	if _, err := a.Tools.Add(a.Todos.Tool()); err != nil {
		return err
	}
	// web_fetch (Claude's WebFetch) goes through the sandbox's network
	// rules, whether or not bash runs sandboxed.
	if _, err := a.Tools.Add(builtin.WebFetch{Network: a.sandbox.Network()}.Tool()); err != nil {
		return err
	}
	_, err := a.Tools.Add(builtin.WebSearchTool(a.webSearch))
	return err
}

// webSearch searches with the session's model's server-side search
// tool, in a request of its own (as Claude Code's WebSearch does):
// Anthropic's web_search_20250305, or for OpenAI chat completions'
// web_search_options with a search model (openaiSearchModel). Other
// providers have none synaps uses.
func (a *App) webSearch(ctx context.Context, query string, allowed, blocked []string) (string, bool, string, error) {
	switch c := a.provider.(type) {
	case *anthropic.Client:
		out, err := c.WebSearch(ctx, a.modelID, query, allowed, blocked)
		return out, true, "", err
	case *openai.Client:
		model, why := a.openaiSearchModel(c)
		if model == "" {
			return "", false, why, nil
		}
		out, err := c.WebSearch(ctx, model, query, allowed, blocked)
		return out, true, "", err
	}
	return "", false, a.Model + ": only Anthropic and OpenAI models have a server-side search tool synaps uses; switch with /model to one, or fetch pages with web_fetch", nil
}

// openaiSearchModel is the model an OpenAI web search asks: config
// openai_search_model, else the session's model when it is a search
// model, else gpt-4o-search-preview on api.openai.com. Another
// OpenAI-compatible endpoint has no search unless the config names a
// model for it; why says so.
func (a *App) openaiSearchModel(c *openai.Client) (model, why string) {
	if m, ok := a.Config.Get(config.KeyOpenAISearchModel); ok && m != "" {
		return m, ""
	}
	if strings.Contains(a.modelID, "search") {
		return a.modelID, ""
	}
	if c.IsOpenAI() {
		return openai.DefaultSearchModel, ""
	}
	return "", a.Model + ": this OpenAI-compatible endpoint is not api.openai.com, so synaps does not know a search model for it; set " + config.KeyOpenAISearchModel + " in the config to one that takes web_search_options, or fetch pages with web_fetch"
}

// fireTask runs a task hook through the extensions and Claude hooks; a
// block refuses the change with its reason.
func (a *App) fireTask(ctx context.Context, kind string, data json.RawMessage) (bool, string) {
	if a.Host == nil {
		return false, ""
	}
	id := ""
	if a.Session != nil {
		id = a.Session.ID
	}
	d := a.Host.RunHook(ctx, hook.Event{Kind: kind, SessionID: id, Data: data})
	if d.Blocked {
		return true, hook.BlockReason(d.Reason)
	}
	return false, ""
}

// restoreTodos gives the list of the session now open: the last
// todo_write of a resumed session, none for a new one. A compacted
// session keeps the list it had (its messages are a summary now).
func (a *App) restoreTodos() {
	if a.Todos == nil || a.Session == nil {
		return
	}
	if !a.Todos.Restore(a.Session.Messages()) && a.Session.Summary == "" {
		a.Todos.Set(nil)
	}
}
