package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/tool"
)

// Subagents: the model starts a child agent loop with the agent tool (or
// Claude Code's Task/Agent, same input). The child is not a process: it is
// another Agent in this one, with its own conversation, model and tools,
// sharing the parent's hooks (so the same extension processes and Claude
// hooks judge every call it makes), permission policy, confirmer (its
// questions are asked one at a time with the parent's and name it) and
// session file (its transcript is saved there, marked with its id). Its
// final answer is the tool's result.

// AgentToolName is the model-facing name of the tool that starts a
// subagent. Calls named as Claude Code names it (Task, Agent) run it too.
const AgentToolName = "agent"

// GeneralPurpose is the agent type of a child without a definition: the
// parent's system prompt and every tool but the agent tool.
const GeneralPurpose = "general-purpose"

// Subagent defaults.
const (
	// DefaultMaxParallelAgents bounds how many agent calls of one model
	// turn run at once.
	DefaultMaxParallelAgents = 4
	// DefaultAgentMaxTurns bounds one child's model requests.
	DefaultAgentMaxTurns = 30
)

// Definition is an agent type: a Markdown agent file (Claude Code's
// agents/*.md) or the built-in general-purpose one.
type Definition struct {
	// Name is what subagent_type takes; Description tells the model when
	// to use it (both are in the agent tool's description).
	Name, Description string
	// Model is the child's model as --model takes it; "" or "inherit":
	// the parent's.
	Model string
	// Tools is the allowlist, in synaps's names or Claude's (Read, Bash);
	// empty: every tool the parent has but the agent tool.
	Tools []string
	// Prompt is the child's system prompt; "": the parent's.
	Prompt string
	// MaxTurns and MaxTokens are the child's budget (model requests;
	// input plus output tokens); 0: Subagents' defaults.
	MaxTurns, MaxTokens int
	// File is where it was defined, for errors.
	File string
}

// Subagents configures the agent tool. Zero values take the documented
// defaults.
type Subagents struct {
	Definitions []Definition
	// Resolve returns the provider and model id of a definition's model;
	// a nil provider (and note, which the user is shown) runs the child
	// on the parent's model. nil runs every child on the parent's model.
	Resolve func(model string) (p llm.Provider, id, note string, err error)
	// ToolName maps an allowlist entry to a synaps tool name (Claude's
	// Read to read); nil takes entries as written.
	ToolName func(string) string
	// MaxParallel bounds the agent calls of one turn that run at once.
	// Default DefaultMaxParallelAgents.
	MaxParallel int
	// MaxTurns is a child's model request budget (DefaultAgentMaxTurns);
	// MaxTokens its token budget, input plus output (0: none).
	MaxTurns, MaxTokens int
}

func (s *Subagents) parallel() int {
	if s == nil || s.MaxParallel <= 0 {
		return DefaultMaxParallelAgents
	}
	return s.MaxParallel
}

// lookup finds an agent type; "" is general-purpose.
func (s *Subagents) lookup(name string) (Definition, bool) {
	if name == "" {
		name = GeneralPurpose
	}
	for _, d := range s.Definitions {
		if d.Name == name {
			return d, true
		}
	}
	if name == GeneralPurpose {
		return Definition{Name: GeneralPurpose}, true
	}
	return Definition{}, false
}

func (s *Subagents) names() []string {
	names := []string{GeneralPurpose}
	for _, d := range s.Definitions {
		if !slices.Contains(names, d.Name) {
			names = append(names, d.Name)
		}
	}
	slices.Sort(names)
	return names
}

// Tool is the agent tool to add to the parent's registry.
func (s *Subagents) Tool() tool.Tool { return &agentTool{s: s} }

// agentTool is the agent tool. The loop runs it itself (runSubagent): a
// child needs the parent, which a tool's Run does not get.
type agentTool struct{ s *Subagents }

// agentInput is the tool's input: Claude Code's Task input.
type agentInput struct {
	Description  string `json:"description"`
	Prompt       string `json:"prompt"`
	SubagentType string `json:"subagent_type"`
}

func (t *agentTool) Spec() tool.Spec {
	var b strings.Builder
	b.WriteString("Start a subagent: a separate agent with its own context window that works on a task on its own and returns its final answer. " +
		"Use it for searches and tasks that would fill your context, and start several in one turn to run them in parallel. " +
		"The subagent sees only the prompt you give it, so say everything it needs; its answer is not shown to the user, so pass on what matters.\n\nAgent types (subagent_type):\n")
	fmt.Fprintf(&b, "- %s: a general agent with every tool (the default)\n", GeneralPurpose)
	for _, d := range t.s.Definitions {
		if d.Name == GeneralPurpose {
			continue
		}
		desc := d.Description
		if desc == "" {
			desc = "(no description)"
		}
		fmt.Fprintf(&b, "- %s: %s", d.Name, oneLine(desc))
		if len(d.Tools) > 0 {
			fmt.Fprintf(&b, " (tools: %s)", strings.Join(d.Tools, ", "))
		}
		b.WriteString("\n")
	}
	return tool.Spec{
		// Read-only: starting a child changes nothing by itself, and every
		// call the child makes is judged on its own (hooks, permission
		// mode, rules), so it needs no permission of its own — as Claude
		// Code's Task needs none.
		RuntimeName: AgentToolName, Source: "builtin", Description: b.String(), ReadOnly: true,
		InputSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"description":{"type":"string","description":"A short (3-5 word) description of the task"},` +
			`"prompt":{"type":"string","description":"The task for the agent to perform"},` +
			`"subagent_type":{"type":"string","description":"The type of agent to use (default general-purpose)"}},` +
			`"required":["prompt"]}`),
	}
}

// Run is never called by the loop (it runs the child itself); outside a
// loop there is no parent to run a child in.
func (t *agentTool) Run(context.Context, json.RawMessage) (tool.Result, error) {
	return tool.Result{}, errors.New("the agent tool runs only inside an agent loop")
}

// child is what an Agent running as a subagent knows about itself.
type child struct {
	sub         *hook.Subagent
	description string
	// parentTools are the tools of the parent: a call of one the
	// allowlist left out is told so, not "unknown".
	parentTools *tool.Registry
	// stopBlocks counts on_subagent_complete blocks (stop_hook_active).
}

// isAgentCall reports whether a call runs the agent tool.
func (a *Agent) isAgentCall(c llm.Block) bool {
	t, _, ok := a.lookupTool(c.Name)
	_, is := t.(*agentTool)
	return ok && is
}

// lookupTool is Tools.Lookup, also reading Claude Code's names of the
// agent tool (Task, and Agent since Claude Code 2.1.63).
func (a *Agent) lookupTool(name string) (tool.Tool, tool.Spec, bool) {
	t, spec, ok := a.cfg.Tools.Lookup(name)
	if !ok && (name == "Task" || name == "Agent") {
		return a.cfg.Tools.Lookup(AgentToolName)
	}
	return t, spec, ok
}

// newAgentID is a subagent id in Claude Code's form: "a" and 16 hex
// digits.
func newAgentID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "a" + hex.EncodeToString(b[:])
}

// runSubagent runs the child an agent tool call asks for and returns
// what the parent's model gets: the child's final answer and usage, or
// a clear error (unknown type, budget exhausted, model error, cancelled).
// The parent goes on either way.
func (a *Agent) runSubagent(ctx context.Context, t *agentTool, callID string, input json.RawMessage) tool.Result {
	fail := func(format string, args ...any) tool.Result {
		return tool.Result{Output: fmt.Sprintf(format, args...), IsError: true}
	}
	if a.child != nil {
		return fail("a subagent cannot start subagents; do the task yourself")
	}
	if a.cfg.Provider == nil {
		// synaps mcp serve without a model: nothing to run a child on.
		return fail("agent: there is no model to run a subagent on; start synaps with a model (--model)")
	}
	var in agentInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fail("agent: the input is not {description, prompt, subagent_type}: %v", err)
	}
	if strings.TrimSpace(in.Prompt) == "" {
		return fail("agent: prompt is empty; give the subagent its task in prompt")
	}
	s := t.s
	def, ok := s.lookup(in.SubagentType)
	if !ok {
		return fail("agent: unknown agent type %q; the agent types are: %s", in.SubagentType, strings.Join(s.names(), ", "))
	}
	provider, model, providerName := a.cfg.Provider, a.cfg.Model, a.providerName()
	if def.Model != "" && def.Model != "inherit" && s.Resolve != nil {
		p, id, note, err := s.Resolve(def.Model)
		switch {
		case err != nil:
			return fail("agent %s: its model %s cannot be used: %v (%s)", def.Name, def.Model, err, def.File)
		case p != nil:
			provider, model, providerName = p, id, llm.ProviderName(def.Model)
		}
		if note != "" {
			a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("agent %s: %s", def.Name, note)})
		}
	}
	tools, missing := a.childTools(s, def)
	if len(missing) > 0 {
		a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("agent %s: its tools list names %s, which no tool of this session is (%s)", def.Name, strings.Join(missing, ", "), def.File)})
	}
	sub := &hook.Subagent{ID: newAgentID(), Type: def.Name, ParentToolUseID: callID}
	sess, err := a.cfg.Session.Child(sub.ID, sub.Type, callID, in.Description)
	if err != nil {
		return fail("agent %s: %v", def.Name, err)
	}
	system := def.Prompt
	if system == "" {
		system = a.cfg.System
	}
	maxTurns, maxTokens := def.MaxTurns, def.MaxTokens
	if maxTurns <= 0 {
		maxTurns = s.MaxTurns
	}
	if maxTurns <= 0 {
		maxTurns = DefaultAgentMaxTurns
	}
	if maxTokens <= 0 {
		maxTokens = s.MaxTokens
	}
	if extra := a.subagentStart(ctx, sub, in.Description, in.Prompt); extra != "" {
		system += "\n\n" + extra // Claude Code's SubagentStart additionalContext
	}
	label := fmt.Sprintf("agent %s (%s)", def.Name, sub.ID)
	var confirmer hook.Confirmer
	if a.cfg.Confirmer != nil {
		confirmer = namedConfirmer{a.cfg.Confirmer, label}
	}
	cfg := Config{
		Provider: provider, Model: model, ProviderName: providerName, System: system, Tools: tools,
		Hooks: a.cfg.Hooks, Session: sess, Confirmer: confirmer, Permissions: a.cfg.Permissions,
		ApproveConfirms: a.cfg.ApproveConfirms, SaveRule: a.cfg.SaveRule, LeavePlan: a.cfg.LeavePlan, MaxTurns: maxTurns, MaxTokensTotal: maxTokens,
		Price: a.cfg.Price, MaxTokens: a.cfg.MaxTokens, MaxToolOutput: a.cfg.MaxToolOutput,
		tree: a.cfg.tree, // the run's limits bound the whole tree
		OnEvent: func(ev Event) {
			if ev.Subagent == nil {
				ev.Subagent = sub
			}
			a.emit(ev)
		},
	}
	if model == a.cfg.Model {
		cfg.Effort = a.cfg.Effort
	}
	c := New(cfg)
	a.cfg.tree.childStarts()
	c.ask, c.started = a.ask, true
	c.child = &child{sub: sub, description: in.Description, parentTools: a.cfg.Tools}
	c.now = a.now
	a.emit(Event{Type: EventSubagentStart, Subagent: sub, Text: in.Description})
	err = c.Send(hook.WithSubagent(ctx, sub), in.Prompt)
	used := c.Usage()
	a.kids.add(used)
	answer := lastText(sess.View())
	a.emit(Event{Type: EventSubagentEnd, Subagent: sub, Usage: used, Err: err, Text: answer})
	footer := fmt.Sprintf("[agent %s %s: %s, %d input and %d output tokens]", def.Name, sub.ID, plural.Count(c.Requests(), "model request"), used.InputTokens, used.OutputTokens)
	var limit *LimitError
	switch {
	case err == nil:
		if strings.TrimSpace(answer) == "" {
			answer = "(the agent gave no answer)"
		}
		return tool.Result{Output: answer + "\n\n" + footer}
	case ctx.Err() != nil:
		return fail("agent %s was cancelled by the user before it finished.\n\n%s", def.Name, footer)
	case errors.Is(err, ErrTurnLimit), errors.As(err, &limit):
		msg := fmt.Sprintf("agent %s stopped: its budget is exhausted (%v).", def.Name, err)
		if answer != "" {
			msg += " Its last words: " + answer
		}
		return fail("%s\n\n%s", msg, footer)
	case errors.Is(err, ErrStopped):
		return fail("agent %s: %v\n\n%s", def.Name, err, footer)
	default:
		return fail("agent %s failed: model error: %v\n\n%s", def.Name, err, footer)
	}
}

// childTools is the child's registry: the parent's tools that the
// definition's allowlist names (all of them when it names none), never
// the agent tool (a child does not start children). missing are the
// allowlist's names no tool has.
func (a *Agent) childTools(s *Subagents, def Definition) (*tool.Registry, []string) {
	allowed := map[string]bool{}
	var missing []string
	for _, n := range def.Tools {
		n = strings.TrimSpace(n)
		if s.ToolName != nil {
			n = s.ToolName(n)
		}
		if n == "" || n == "Task" || n == "Agent" || n == AgentToolName {
			continue
		}
		if _, _, ok := a.cfg.Tools.Lookup(n); !ok {
			missing = append(missing, n)
			continue
		}
		allowed[n] = true
	}
	reg := a.cfg.Tools.Filter(func(spec tool.Spec) bool {
		if spec.RuntimeName == AgentToolName {
			return false
		}
		return len(def.Tools) == 0 || allowed[spec.Name] || allowed[spec.RuntimeName]
	})
	return reg, missing
}

// notAllowed is the result of a child's call of a tool its allowlist
// left out; "" when the name is no tool of the parent's either.
func (c *child) notAllowed(name string, names []string) string {
	if c == nil || c.parentTools == nil {
		return ""
	}
	if _, _, ok := c.parentTools.Lookup(name); !ok && name != "Task" && name != "Agent" {
		return ""
	}
	return fmt.Sprintf("%s is not allowed for agent %s: its tools are %s. Do the task with those, or say what you could not do.", name, c.sub.Type, strings.Join(names, ", "))
}

// lastText is the text of the last assistant message.
func lastText(msgs []llm.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != llm.RoleAssistant {
			continue
		}
		var b strings.Builder
		for _, bl := range msgs[i].Content {
			if bl.Type == llm.BlockText {
				b.WriteString(bl.Text)
			}
		}
		return strings.TrimSpace(b.String())
	}
	return ""
}

// subagentComplete fires on_subagent_complete for a child's final answer;
// a block keeps the child going, as on_message_complete's keeps the main
// loop going.
func (a *Agent) subagentComplete(ctx context.Context, text string, stopHookActive bool) hook.Decision {
	data, _ := json.Marshal(map[string]any{"description": a.child.description, "stop_hook_active": stopHookActive})
	transcript, _ := json.Marshal(a.cfg.Session.View())
	return a.cfg.Hooks.RunHook(ctx, hook.Event{Kind: contract.HookOnSubagentComplete, Message: &text, SessionID: a.cfg.Session.ID, Data: data,
		Subagent: a.child.sub, AgentTranscript: transcript})
}

// kidUsage sums what the children of a turn spent; they finish on their
// own goroutines, the parent adds it to its usage between steps.
type kidUsage struct {
	mu   sync.Mutex
	used llm.Usage
}

func (k *kidUsage) add(u llm.Usage) {
	k.mu.Lock()
	k.used = k.used.Add(u)
	k.mu.Unlock()
}

func (k *kidUsage) take() llm.Usage {
	k.mu.Lock()
	defer k.mu.Unlock()
	u := k.used
	k.used = llm.Usage{}
	return u
}

// namedConfirmer asks the parent's user about a child's call, naming the
// child.
type namedConfirmer struct {
	hook.Confirmer
	label string
}

func (n namedConfirmer) Confirm(ctx context.Context, toolName string, msgs []hook.Confirm) bool {
	return n.Confirmer.Confirm(ctx, n.label+": "+toolName, msgs)
}

func (n namedConfirmer) Ask(ctx context.Context, q Question) Answer {
	q.Agent = n.label
	if _, ok := n.Confirmer.(Asker); !ok {
		q.Tool = n.label + ": " + q.Tool // a plain yes/no question names it in the tool
	}
	return askUser(ctx, n.Confirmer, q)
}
