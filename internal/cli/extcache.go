package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/plural"
)

// extCacheCmd is `synaps extensions cache clear`: the initialize cache
// lets a session start without spawning the extensions of tool calls; clearing
// it makes the next session spawn every extension and cache its answer
// afresh (the cache notices edits by itself; this is for the doubter).
func extCacheCmd(stdio Stdio) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "Manage the cache of extensions' initialize answers",
		Long: `A session keeps the initialize answer of each extension that brings no
model provider in $SYNAPS_BASE_DIR/extensions/init-cache, so the next
session registers its tools and hooks without waiting for it. One that
only registers tools and hooks tool calls is not started until the first
tool call it serves or judges; one that hooks anything else starts with
the session, beside the first request. An edit to the plugin, its
command, its environment or its config is noticed: that extension is
started and its answer cached afresh. SYNAPS_EXTENSIONS_INIT_CACHE=0
turns the cache off.`,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "clear",
		Short: "Forget every cached initialize answer",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			n, err := extension.ClearInitCache(base)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdio.Out, "cleared %s from %s\n", plural.Count(n, "cached answer"), extension.InitCacheDir(base))
			return nil
		},
	})
	return cmd
}
