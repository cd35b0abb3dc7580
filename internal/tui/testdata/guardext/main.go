// Command guardext is the extension the TUI's end-to-end test installs:
// it asks the user to confirm bash commands that touch files and lets
// everything else through.
package main

import (
	"context"
	"log"
	"strings"

	"github.com/synaps-cli/synaps/sdk/go/synaps"
)

func main() {
	ext := synaps.New("guard", "0.1.0")
	ext.Hook(synaps.BeforeToolCall, func(_ context.Context, ev *synaps.Event) synaps.Result {
		var in struct {
			Command string `json:"command"`
		}
		if ev.ToolName == "bash" && ev.Input(&in) == nil && strings.Contains(in.Command, "touch") {
			return synaps.Confirm("run it?")
		}
		return synaps.Continue()
	})
	if err := ext.Run(); err != nil {
		log.Fatal(err)
	}
}
