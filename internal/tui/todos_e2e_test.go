package tui

import (
	"strings"
	"testing"
)

// TestTUITodoList: the model's todo_write list shows above the input as
// it changes (☐ pending, ◐ in progress by its activeForm, ☒ completed),
// and a resumed session shows it again before anything is sent.
func TestTUITodoList(t *testing.T) {
	e := newE2E(t, `{"text":"Planning.","tool_calls":[{"name":"todo_write","input":{"todos":[{"content":"Run the tests","status":"in_progress","activeForm":"Running the tests"},{"content":"Ship it","status":"pending","activeForm":"Shipping it"}]}}]}
{"text":"Planned."}
{"text":"Tests ran.","tool_calls":[{"name":"todo_write","input":{"todos":[{"content":"Run the tests","status":"completed","activeForm":"Running the tests"},{"content":"Ship it","status":"in_progress","activeForm":"Shipping it"}]}}]}
{"text":"Halfway."}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	e.start(t, 100, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("plan the release")
	e.waitFor("the list", contains("Planned."), contains("tasks 0/2 done"), contains("◐ Running the tests"), contains("☐ Ship it"))
	e.send("go on")
	e.waitFor("the list updated", contains("Halfway."), contains("tasks 1/2 done"), contains("☒ Run the tests"), contains("◐ Shipping it"))
	e.send("/quit")
	if code := e.waitExit(); code != "0" {
		t.Fatalf("exit code %s", code)
	}
	id := resumeID(t, e.capture())

	e.start(t, 100, 30, "--no-extensions", "--resume", id)
	e.waitFor("the list of the resumed session", contains("Ask anything"), contains("tasks 1/2 done"), contains("◐ Shipping it"))
	e.send("/quit")
	e.waitExit()
}
