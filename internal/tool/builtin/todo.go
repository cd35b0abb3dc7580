package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/tool"
)

// TodoToolName is the todo tool's synaps name; Claude's is TodoWrite
// (internal/claude maps the two), and its input is TodoWrite's.
const TodoToolName = "todo_write"

// Todo statuses, as TodoWrite spells them.
const (
	TodoPending    = "pending"
	TodoInProgress = "in_progress"
	TodoCompleted  = "completed"
)

// TodoItem is one task of the list, in Claude's TodoWrite shape.
type TodoItem struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm,omitempty"`
}

// todoResult is the text Claude Code's TodoWrite returns to the model,
// word for word: prompts written for Claude expect it.
const todoResult = "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable"

// Todos is a session's task list: what the model last wrote with
// todo_write. It is not saved on its own: the session's record holds
// every todo_write call, and Restore reads the last one back on resume.
type Todos struct {
	mu    sync.Mutex
	items []TodoItem
	// Fire runs a task hook (contract.HookOnTaskCreated or
	// HookOnTaskCompleted) with its data ({"task_id", "task_subject",
	// "task_description", "status"}) before the list changes; a block
	// (blocked true, with its reason) keeps the list as it was. Nil: no
	// hooks.
	Fire func(ctx context.Context, kind string, data json.RawMessage) (blocked bool, reason string)
	// OnChange, when set, is told the new list after each change (a UI
	// shows it). It is called without the lock held.
	OnChange func([]TodoItem)
}

// Items is a copy of the list.
func (t *Todos) Items() []TodoItem {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]TodoItem(nil), t.items...)
}

// Set replaces the list without firing hooks (a resumed session's).
func (t *Todos) Set(items []TodoItem) {
	t.mu.Lock()
	t.items = append([]TodoItem(nil), items...)
	t.mu.Unlock()
	if t.OnChange != nil {
		t.OnChange(t.Items())
	}
}

// Restore sets the list to the last todo_write call in msgs that
// succeeded (its input; a call Claude Code's hooks or permissions
// refused did not change the list). found is false when msgs hold none:
// the list is then left as it is.
func (t *Todos) Restore(msgs []llm.Message) (found bool) {
	failed := map[string]bool{}
	for _, m := range msgs {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult && b.IsError {
				failed[b.ToolUseID] = true
			}
		}
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		uses := msgs[i].ToolUses()
		for j := len(uses) - 1; j >= 0; j-- {
			u := uses[j]
			if (u.Name != TodoToolName && u.Name != "TodoWrite") || failed[u.ID] {
				continue
			}
			items, err := parseTodos(u.Input)
			if err != nil {
				continue
			}
			t.Set(items)
			return true
		}
	}
	return false
}

// Tool is the todo_write tool writing this list.
func (t *Todos) Tool() tool.Tool { return &todoTool{t} }

type todoTool struct{ todos *Todos }

func (tt *todoTool) Spec() tool.Spec {
	return tool.Spec{
		Name:        TodoToolName,
		RuntimeName: TodoToolName,
		Description: "Write the session's task list, whole: every task with its status (pending, in_progress or completed) and activeForm (what is being done, e.g. \"Running the tests\"). Use it for work of three steps or more; keep one task in_progress; mark a task completed as soon as it is done. The user sees the list.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"todos":{"type":"array","description":"The updated task list","items":{"type":"object","properties":{"content":{"type":"string","minLength":1},"status":{"type":"string","enum":["pending","in_progress","completed"]},"activeForm":{"type":"string"}},"required":["content","status"]}}},"required":["todos"]}`),
		Source:      Source,
		// It changes only the session's own list: nothing to ask about.
		ReadOnly: true,
	}
}

func (tt *todoTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	items, err := parseTodos(input)
	if err != nil {
		return fail("todo_write: %v", err), nil
	}
	t := tt.todos
	old := t.Items()
	if t.Fire != nil {
		for _, ev := range taskEvents(old, items) {
			if blocked, reason := t.Fire(ctx, ev.kind, ev.data); blocked {
				if err := ctx.Err(); err != nil {
					return tool.Result{}, err
				}
				what := "adding"
				if ev.kind == contract.HookOnTaskCompleted {
					what = "completing"
				}
				if strings.TrimSpace(reason) == "" {
					reason = "no reason given"
				}
				return fail("A hook refused %s task %q; the task list is unchanged: %s", what, ev.subject, reason), nil
			}
		}
	}
	t.mu.Lock()
	t.items = items
	t.mu.Unlock()
	if t.OnChange != nil {
		t.OnChange(t.Items())
	}
	return tool.Result{Output: todoResult}, nil
}

// parseTodos reads TodoWrite's input, naming the task and field at fault.
func parseTodos(input json.RawMessage) ([]TodoItem, error) {
	var in struct {
		Todos *[]TodoItem `json:"todos"`
	}
	if err := decode(input, &in); err != nil {
		return nil, err
	}
	if in.Todos == nil {
		return nil, fmt.Errorf(`"todos" is required: the whole list, e.g. {"todos":[{"content":"Run the tests","status":"pending","activeForm":"Running the tests"}]}`)
	}
	items := *in.Todos
	for i, it := range items {
		if strings.TrimSpace(it.Content) == "" {
			return nil, fmt.Errorf("todos[%d].content is empty: say what the task is", i)
		}
		switch it.Status {
		case TodoPending, TodoInProgress, TodoCompleted:
		default:
			return nil, fmt.Errorf("todos[%d].status is %q: use pending, in_progress or completed", i, it.Status)
		}
	}
	return append([]TodoItem{}, items...), nil
}

type taskEvent struct {
	kind, subject string
	data          json.RawMessage
}

// taskEvents are the hooks a change of the list fires: on_task_created
// for each task whose content the old list did not have, then
// on_task_completed for each task completed now that was not before (a
// task written completed at once fires both). Tasks are told apart by
// their content, as TodoWrite has no ids; task_id is the task's 1-based
// place in the new list.
func taskEvents(old, items []TodoItem) []taskEvent {
	was := map[string]string{}
	for _, it := range old {
		was[it.Content] = it.Status
	}
	var created, completed []taskEvent
	for i, it := range items {
		data, _ := json.Marshal(map[string]string{"task_id": strconv.Itoa(i + 1), "task_subject": it.Content, "task_description": it.ActiveForm, "status": it.Status})
		st, existed := was[it.Content]
		if !existed {
			created = append(created, taskEvent{contract.HookOnTaskCreated, it.Content, data})
		}
		if it.Status == TodoCompleted && st != TodoCompleted {
			completed = append(completed, taskEvent{contract.HookOnTaskCompleted, it.Content, data})
		}
	}
	return append(created, completed...)
}
