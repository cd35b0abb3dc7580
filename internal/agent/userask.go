package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/tool"
)

// Tools the user answers rather than code: Claude Code's AskUserQuestion
// (the model asks a multiple-choice question) and ExitPlanMode (the model
// ends a plan and asks to leave plan mode). They run in the loop
// (runUserTool), which holds the front-end that can ask: a Confirmer that
// is also a Chooser. Without one (-p, rpc, server, acp today) they answer
// at once that nobody can be asked, so a headless run never hangs.

// Choice is a multiple-choice question a tool asks the user.
type Choice struct {
	// Tool is the model-facing name of the tool that asks.
	Tool string
	// Header is a short label (AskUserQuestion's header, "Plan" for
	// exit_plan_mode's question).
	Header string
	// Body is shown above the question: the plan to approve, Markdown;
	// "" for none.
	Body string
	// Question is the question itself.
	Question string
	// Options are the answers on offer, at least one.
	Options []ChoiceOption
	// Multi lets the user pick several options.
	Multi bool
	// Agent names the subagent that asks ("" for the main loop).
	Agent string
}

// ChoiceOption is one answer of a Choice.
type ChoiceOption struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// ChoiceAnswer is the user's answer to a Choice.
type ChoiceAnswer struct {
	// Picked are the indexes of the options picked, in Options' order.
	Picked []int
	// Other is text the user typed instead of picking ("" for none).
	Other string
	// Dismissed: the user closed the question without an answer (Esc).
	Dismissed bool
}

// Chooser is a Confirmer that can also ask a multiple-choice question:
// the terminal UI. A front-end without it cannot be asked one.
type Chooser interface {
	Choose(ctx context.Context, c Choice) ChoiceAnswer
}

// Model-facing names of the tools the user answers, and their Claude Code
// names (claude.ClaudeName maps them for hooks and rules).
const (
	AskUserToolName  = "ask_user_question"
	ExitPlanToolName = "exit_plan_mode"
)

// AsksUser reports whether the tool of that runtime name is answered by
// the user: read-only, yet no tool for a hook's agent, which has no user.
func AsksUser(runtimeName string) bool {
	return runtimeName == AskUserToolName || runtimeName == ExitPlanToolName
}

// userTool is a tool the loop runs with the user: Run alone cannot ask.
type userTool interface {
	tool.Tool
	runWithUser(ctx context.Context, a *Agent, ch Chooser, input json.RawMessage) tool.Result
}

// UserTools are the tools to add to a session's registry.
func UserTools() []tool.Tool { return []tool.Tool{askUserTool{}, exitPlanTool{}} }

// runUserTool runs t with the front-end's Chooser, if it has one; the
// time spent waiting for the answer is added to *waited (not the call's
// duration). One question at a time, as with permission questions.
func (a *Agent) runUserTool(ctx context.Context, t userTool, input json.RawMessage, waited *time.Duration) tool.Result {
	ch, _ := a.cfg.Confirmer.(Chooser)
	if ch == nil {
		return t.runWithUser(ctx, a, nil, input)
	}
	// Claude Code's Notification: the user is waited for.
	a.Notify(ctx, "permission_prompt", "synaps has a question for you ("+t.Spec().Name+")")
	start := a.now()
	a.ask.Lock()
	defer func() {
		a.ask.Unlock()
		*waited += a.now().Sub(start)
	}()
	return t.runWithUser(ctx, a, timedChooser{ch, a.subagentName(ctx)}, input)
}

// timedChooser fills in the subagent that asks.
type timedChooser struct {
	Chooser
	agent string
}

func (t timedChooser) Choose(ctx context.Context, c Choice) ChoiceAnswer {
	c.Agent = t.agent
	return t.Chooser.Choose(ctx, c)
}

// subagentName names the subagent whose call runs in ctx ("" for the main
// loop's).
func (a *Agent) subagentName(ctx context.Context) string {
	if sub := hook.SubagentOf(ctx); sub != nil {
		return "agent " + sub.Type
	}
	return ""
}

// errNotInLoop is Run's answer: these tools need the loop's front-end.
var errNotInLoop = errors.New("this tool asks the user and runs only inside an agent loop")

// askUserTool is Claude Code's AskUserQuestion.
type askUserTool struct{}

// askInput is AskUserQuestion's input, as Claude Code takes it.
type askInput struct {
	Questions []askQuestion `json:"questions"`
}

type askQuestion struct {
	Question    string         `json:"question"`
	Header      string         `json:"header"`
	Options     []ChoiceOption `json:"options"`
	MultiSelect bool           `json:"multiSelect"`
}

// maxAskQuestions is how many questions one call may ask, as in Claude
// Code.
const maxAskQuestions = 4

func (askUserTool) Spec() tool.Spec {
	return tool.Spec{
		RuntimeName: AskUserToolName, Source: "builtin", ReadOnly: true,
		Description: "Ask the user one to four multiple-choice questions and wait for the answers: to settle a choice " +
			"(a library, an approach, what the user prefers) instead of guessing. Each question has a short header " +
			"(at most 12 characters), two to four options (label and description), and multiSelect when several " +
			"options may be chosen; the user may also type an answer of their own. Do not use it to ask whether a " +
			"plan is ready or approved: in plan mode, exit_plan_mode asks that.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"questions":{"type":"array","minItems":1,"maxItems":4,` +
			`"description":"The questions to ask (1-4)","items":{"type":"object","properties":{` +
			`"question":{"type":"string","description":"The complete question, ending with a question mark"},` +
			`"header":{"type":"string","description":"A very short label shown as a tag (max 12 chars)"},` +
			`"options":{"type":"array","minItems":2,"maxItems":4,"items":{"type":"object","properties":{` +
			`"label":{"type":"string","description":"The option's text (1-5 words)"},` +
			`"description":{"type":"string","description":"What choosing it means"}},"required":["label"]}},` +
			`"multiSelect":{"type":"boolean","description":"Allow several options to be chosen"}},` +
			`"required":["question","options"]}}},"required":["questions"]}`),
	}
}

func (askUserTool) Run(context.Context, json.RawMessage) (tool.Result, error) {
	return tool.Result{}, errNotInLoop
}

// NobodyToAsk is ask_user_question's result when the front-end cannot
// ask (-p, rpc, server, acp).
const NobodyToAsk = "The user was not asked: synaps runs without an interactive user here (-p, rpc, server or an editor), so nobody can answer. Decide yourself, say which choice you made and why, and go on."

func (askUserTool) runWithUser(ctx context.Context, a *Agent, ch Chooser, input json.RawMessage) tool.Result {
	var in askInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tool.Result{Output: "ask_user_question: the input is not {\"questions\": [...]}: " + err.Error(), IsError: true}
	}
	if len(in.Questions) == 0 || len(in.Questions) > maxAskQuestions {
		return tool.Result{Output: fmt.Sprintf("ask_user_question: questions has %d items; give 1 to %d", len(in.Questions), maxAskQuestions), IsError: true}
	}
	for i, q := range in.Questions {
		if strings.TrimSpace(q.Question) == "" || len(q.Options) == 0 {
			return tool.Result{Output: fmt.Sprintf("ask_user_question: questions[%d] needs a question and at least one option", i), IsError: true}
		}
	}
	if ch == nil {
		return tool.Result{Output: NobodyToAsk, IsError: true}
	}
	var pairs []string
	for _, q := range in.Questions {
		ans := ch.Choose(ctx, Choice{Tool: AskUserToolName, Header: q.Header, Question: q.Question, Options: q.Options, Multi: q.MultiSelect})
		if ans.Dismissed || ctx.Err() != nil {
			return tool.Result{Output: "The user declined to answer the question(s) and stopped; wait for their next message.", IsError: true}
		}
		pairs = append(pairs, fmt.Sprintf("%q=%q", q.Question, answerText(q.Options, ans)))
	}
	return tool.Result{Output: "The user answered your questions: " + strings.Join(pairs, ", ") + ". Go on with these answers in mind."}
}

// answerText is an answer as the model reads it: the labels picked, and
// the user's own text.
func answerText(opts []ChoiceOption, ans ChoiceAnswer) string {
	var parts []string
	for _, i := range ans.Picked {
		if i >= 0 && i < len(opts) {
			parts = append(parts, opts[i].Label)
		}
	}
	if s := strings.TrimSpace(ans.Other); s != "" {
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}
