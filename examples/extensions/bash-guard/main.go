// Command bash-guard is a synaps extension, written with the Go SDK, that
// guards the bash tool: it blocks destructive commands (rm -rf /, mkfs,
// dd to a disk, a fork bomb, a force push to main, …), asks the user to
// confirm risky ones (git push, rm -r, curl | sh, sudo) and lets the rest
// run. The rules are the table in rules.go.
//
// Build it next to its manifest, which starts ./bash-guard:
//
//	go build -o bash-guard .
package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/synaps-cli/synaps/sdk/go/synaps"
)

func main() {
	ext := synaps.New("bash-guard", "0.1.0")
	ext.Hook(synaps.BeforeToolCall, func(ctx context.Context, ev *synaps.Event) synaps.Result {
		var in struct {
			Command string `json:"command"`
		}
		if err := ev.Input(&in); err != nil || strings.TrimSpace(in.Command) == "" {
			return synaps.Continue() // the bash tool itself rejects a missing command
		}
		res := decide(in.Command)
		if res.Action != "continue" {
			ext.Logf("%s %q: %s%s", res.Action, in.Command, res.Reason, res.Message)
		}
		return res
	}, synaps.ForTool("bash")) // as in the manifest: synaps sends only bash calls
	if err := ext.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "bash-guard:", err)
		os.Exit(1)
	}
}

// decide turns the verdict of the rules into a hook result.
func decide(command string) synaps.Result {
	f := Check(command)
	switch f.Verdict {
	case Block:
		return synaps.Block(fmt.Sprintf("bash-guard refuses %q: %s. Do not retry it in another form; if it is really needed, ask the user to run it themselves.", short(command), f.Reason()))
	case Confirm:
		return synaps.Confirm(fmt.Sprintf("bash-guard: %s. Run %q?", f.Reason(), short(command)))
	}
	return synaps.Continue()
}

// short cuts a long command for a message.
func short(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 200 {
		return string(r[:200]) + "…"
	}
	return s
}
