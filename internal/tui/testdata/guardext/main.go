// Command guardext is the extension the TUI's end-to-end test installs:
// it asks the user to confirm bash commands that touch files, rewrites
// an edit's new_string "draft" into "final" (a modify in the chain), and
// lets everything else through.
//
//	guardext [--wait-for FILE]
//
// With --wait-for it answers nothing until FILE exists: an extension
// that is slow to start, for as long as the test wants.
package main

import (
	"context"
	"log"
	"os"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/sdk/go/synaps"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "--wait-for" {
		for {
			if _, err := os.Stat(os.Args[2]); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	ext := synaps.New("guard", "0.1.0")
	ext.Hook(synaps.BeforeToolCall, func(_ context.Context, ev *synaps.Event) synaps.Result {
		var in struct {
			Command string `json:"command"`
		}
		if ev.ToolName == "bash" && ev.Input(&in) == nil && strings.Contains(in.Command, "touch") {
			return synaps.Confirm("run it?")
		}
		var edit map[string]any
		if ev.ToolName == "edit" && ev.Input(&edit) == nil && edit["new_string"] == "draft" {
			edit["new_string"] = "final"
			return synaps.Modify(edit)
		}
		return synaps.Continue()
	})
	if err := ext.Run(); err != nil {
		log.Fatal(err)
	}
}
