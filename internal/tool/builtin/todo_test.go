package builtin

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/llm"
)

// TestTodoEvents: a change of the list fires on_task_created for each
// new task, then on_task_completed for each newly completed one.
func TestTodoEvents(t *testing.T) {
	type fired struct{ Kind, ID, Subject string }
	tests := []struct {
		name       string
		old, input string
		want       []fired
	}{
		{"first list", ``, `{"todos":[{"content":"a","status":"pending","activeForm":"A-ing"},{"content":"b","status":"in_progress"}]}`,
			[]fired{{"on_task_created", "1", "a"}, {"on_task_created", "2", "b"}}},
		{"one completed", `{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"pending"}]}`,
			`{"todos":[{"content":"a","status":"completed"},{"content":"b","status":"in_progress"}]}`,
			[]fired{{"on_task_completed", "1", "a"}}},
		{"written completed at once", `{"todos":[]}`, `{"todos":[{"content":"c","status":"completed"}]}`,
			[]fired{{"on_task_created", "1", "c"}, {"on_task_completed", "1", "c"}}},
		{"nothing new", `{"todos":[{"content":"a","status":"completed"}]}`, `{"todos":[{"content":"a","status":"completed"}]}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []fired
			todos := &Todos{}
			if tc.old != "" {
				items, err := parseTodos(json.RawMessage(tc.old))
				if err != nil {
					t.Fatal(err)
				}
				todos.Set(items)
			}
			todos.Fire = func(_ context.Context, kind string, data json.RawMessage) (bool, string) {
				var d struct {
					ID      string `json:"task_id"`
					Subject string `json:"task_subject"`
				}
				_ = json.Unmarshal(data, &d)
				got = append(got, fired{kind, d.ID, d.Subject})
				return false, ""
			}
			res, err := todos.Tool().Run(context.Background(), json.RawMessage(tc.input))
			if err != nil || res.IsError || res.Output != todoResult {
				t.Fatalf("Run = %+v, %v", res, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTodoBlocked: a hook's block keeps the list as it was and says why.
func TestTodoBlocked(t *testing.T) {
	todos := &Todos{Fire: func(context.Context, string, json.RawMessage) (bool, string) { return true, "not verified" }}
	res, _ := todos.Tool().Run(context.Background(), json.RawMessage(`{"todos":[{"content":"deploy","status":"completed"}]}`))
	if !res.IsError || !strings.Contains(res.Output, `refused adding task "deploy"`) || !strings.Contains(res.Output, "not verified") {
		t.Errorf("result = %+v", res)
	}
	if n := len(todos.Items()); n != 0 {
		t.Errorf("list has %d items after a block", n)
	}
}

// TestTodoInputErrors: a bad input names the field and the fix.
func TestTodoInputErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{}`: `"todos" is required`,
		`{"todos":[{"content":"","status":"pending"}]}`: "todos[0].content is empty",
		`{"todos":[{"content":"a","status":"done"}]}`:   `todos[0].status is "done": use pending, in_progress or completed`,
		`{"todos":"x"}`: "invalid input",
	} {
		res, _ := (&Todos{}).Tool().Run(context.Background(), json.RawMessage(in))
		if !res.IsError || !strings.Contains(res.Output, want) {
			t.Errorf("%s: result %q, want %q", in, res.Output, want)
		}
	}
}

// TestTodoRestore: a resumed session's list is its last successful
// todo_write; a refused one does not count.
func TestTodoRestore(t *testing.T) {
	use := func(id, input string) llm.Message {
		return llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockToolUse, ID: id, Name: TodoToolName, Input: json.RawMessage(input)}}}
	}
	result := func(id string, isErr bool) llm.Message {
		return llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockToolResult, ToolUseID: id, IsError: isErr}}}
	}
	msgs := []llm.Message{
		use("1", `{"todos":[{"content":"a","status":"completed"}]}`), result("1", false),
		use("2", `{"todos":[{"content":"b","status":"pending"}]}`), result("2", true),
	}
	todos := &Todos{}
	if !todos.Restore(msgs) {
		t.Fatal("Restore found no list")
	}
	if diff := cmp.Diff([]TodoItem{{Content: "a", Status: "completed"}}, todos.Items()); diff != "" {
		t.Errorf("restored (-want +got):\n%s", diff)
	}
	if (&Todos{}).Restore(nil) {
		t.Error("Restore of no messages found a list")
	}
}
