package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIPlanApproval: in plan mode the model ends its plan with
// exit_plan_mode; the TUI shows the plan and asks. Text typed instead
// keeps planning (plan mode stays: the write the model then tries is
// refused), the first option approves and leaves plan mode for
// acceptEdits, and the write runs (issue 36 item 9).
func TestTUIPlanApproval(t *testing.T) {
	e := newE2E(t, `{"text":"My plan.","tool_calls":[{"name":"exit_plan_mode","input":{"plan":"## Plan\n1. write **done.txt**"}}]}
{"text":"Trying anyway.","expect":{"last_tool_result_contains":"keep planning, and said: \"also add tests\""},"tool_calls":[{"name":"write","input":{"path":"early.txt","content":"no\n"}}]}
{"text":"Revised.","expect":{"last_tool_result_contains":"plan mode, which is read-only"},"tool_calls":[{"name":"exit_plan_mode","input":{"plan":"## Plan v2\n1. write done.txt\n2. add tests"}}]}
{"text":"Writing.","expect":{"last_tool_result_contains":"left plan mode for acceptEdits"},"tool_calls":[{"name":"write","input":{"path":"done.txt","content":"ok\n"}}]}
{"text":"Plan carried out."}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	e.argv = []string{e.argv[0], "--model"}
	e.start(t, 120, 40, "--no-extensions", "--permission-mode", "plan")
	e.waitFor("the prompt", contains("Ask anything"), contains("plan"))
	e.send("plan the work")
	e.waitFor("the plan and the question",
		contains("● Plan:"), contains("write done.txt"),
		contains("? [Plan] Would you like to proceed?"),
		contains("1. Yes, and auto-accept edits"), contains("2. Yes, and manually approve edits"), contains("3. No, keep planning"))
	e.send("also add tests")
	e.waitFor("the second plan", contains("Plan v2"), contains(`"also add tests"`))
	if _, err := os.Stat(filepath.Join(e.work, "early.txt")); err == nil {
		t.Fatal("early.txt was written in plan mode")
	}
	e.keys("Enter") // the first option: auto-accept edits
	e.waitFor("the plan carried out", contains("Plan carried out."), contains("plan approved: permission mode acceptEdits"), contains("⏵⏵ acceptEdits"))
	if got := readFile(t, filepath.Join(e.work, "done.txt")); got != "ok\n" {
		t.Errorf("done.txt = %q", got)
	}
}

// TestTUIAskUserQuestion: the model's ask_user_question shows as a list;
// ↓ then enter picks the second option of the first question, space
// ticks options of the multi-select second, and the answers return as the
// tool's result (issue 36 item 13).
func TestTUIAskUserQuestion(t *testing.T) {
	e := newE2E(t, `{"text":"A question first.","tool_calls":[{"name":"ask_user_question","input":{"questions":[{"question":"Which database?","header":"DB","options":[{"label":"SQLite","description":"one file"},{"label":"Postgres","description":"a server"}],"multiSelect":false},{"question":"Which extras?","header":"Extras","options":[{"label":"metrics"},{"label":"tracing"},{"label":"logs"}],"multiSelect":true}]}}]}
{"text":"Postgres with tracing and logs it is.","expect":{"last_tool_result_contains":"\"Which database?\"=\"Postgres\", \"Which extras?\"=\"tracing, logs\""}}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	e.start(t, 120, 40, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("set it up")
	e.waitFor("the first question", contains("? [DB] Which database?"), contains("1. SQLite — one file"), contains("2. Postgres — a server"))
	e.keys("Down")
	e.keys("Enter")
	e.waitFor("the second question", contains("? [Extras] Which extras?"), contains("[ ] tracing"))
	e.keys("Down")
	e.keys("Space")
	e.keys("3")
	e.waitFor("two ticked", contains("[x] tracing"), contains("[x] logs"), contains("[ ] metrics"))
	e.keys("Enter")
	e.waitFor("the answer used", contains("Postgres with tracing and logs it is."), contains("? Which extras? tracing, logs"))
}
