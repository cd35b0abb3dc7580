package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/demo"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/plural"
)

func newDemoCmd(stdio Stdio) *cobra.Command {
	var keep bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "An offline session: a scripted model, real tools, real extensions",
		Long: `demo runs a short session with no API key and no network. The model is
a script replayed from inside synaps; everything else is real: three
bundled extensions run as separate processes over JSON-RPC, the guard
blocks a dangerous command, the context extension injects notes, the
built-in tools touch a scratch project, and the session is saved.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDemo(cmd.Context(), stdio, keep)
		},
	}
	cmd.Flags().BoolVar(&keep, "keep", false, "keep the demo's scratch directory and print where it is")
	return cmd
}

func runDemo(ctx context.Context, stdio Stdio, keep bool) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find the synaps binary to start the bundled extensions: %w", err)
	}
	dir, err := os.MkdirTemp("", "synaps-demo-")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(dir)
	}
	base, work, script, err := demo.Setup(dir, self)
	if err != nil {
		return err
	}
	out := stdio.Out
	r := &renderer{out: out, color: colorOn(out)}
	fmt.Fprintln(out, r.style("1", "synaps demo")+" — the model is SCRIPTED: a fixed conversation replayed offline, no API key, no network.")
	fmt.Fprintln(out, "Everything else is real: extension processes, hooks, built-in tools, the session file.")
	fmt.Fprintln(out)
	a, err := app.Open(ctx, app.Options{
		BaseDir: base, WorkDir: work, Model: "script:" + script, Version: Version,
		OnEvent: r.event, Getenv: demoEnv,
		// Nobody is asked in the demo: it runs every call, and the
		// guard's block still wins (as it does over every mode and rule).
		PermissionMode: permission.Bypass,
	})
	if err != nil {
		return err
	}
	defer a.Close(context.WithoutCancel(ctx))
	fmt.Fprintln(out, r.style("2", "$ /extensions list"))
	fmt.Fprint(out, app.FormatStatuses(a.Statuses(), false))
	for _, p := range demo.Prompts {
		fmt.Fprintln(out)
		fmt.Fprintln(out, r.style("1", "> "+p))
		if err := a.Agent.Send(ctx, p); err != nil {
			return fmt.Errorf("demo turn failed: %w", err)
		}
		r.endText()
	}
	fmt.Fprintln(out)
	u := a.Agent.Usage()
	fmt.Fprintf(out, "%s session %s saved (%s, ~%d tokens in / %d out)\n", r.style("2", "✓"), a.Session.ID, plural.Count(len(a.Session.Messages()), "message"), u.InputTokens, u.OutputTokens)
	if keep {
		fmt.Fprintf(out, "  scratch directory: %s\n  session file: %s\n  extension logs: %s\n", dir, a.Session.Path, filepath.Join(base, "extensions", "logs"))
	} else {
		fmt.Fprintln(out, "  (in a scratch directory that is removed now; `synaps demo --keep` keeps it to look at)")
	}
	fmt.Fprintln(out, "Next: put an API key in ANTHROPIC_API_KEY or OPENAI_API_KEY and run `synaps`, or write an extension: docs/extensions/tutorial.md")
	return nil
}

// demoEnv hides API keys and the user's base dir from the demo, so it
// behaves the same on every machine.
func demoEnv(k string) string {
	switch k {
	case "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "SYNAPS_BASE_DIR", "SYNAPS_EXTENSIONS_TRACE":
		return ""
	}
	return os.Getenv(k)
}
