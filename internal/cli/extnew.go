package cli

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/scaffold"
)

func extNewCmd(stdio Stdio) *cobra.Command {
	var lang, dir string
	var withTool bool
	var hooks []string
	cmd := &cobra.Command{
		Use:   "new NAME",
		Short: "Write a new extension that passes `synaps extensions test` as it is",
		Long: `new writes NAME/ with a manifest and a dependency-free program in
Python, Node.js or Go: a hello tool (--tool, the default) and/or
subscriptions to hooks (--hook HOOK, repeatable) that let every event
through. A Go extension is built here (go build -o NAME .) and its
manifest starts the binary, so its first start does not compile; rebuild
after editing. Then: synaps extensions test NAME`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			target := filepath.Join(dir, args[0])
			files, err := scaffold.Write(target, scaffold.Options{Name: args[0], Lang: lang, Tool: withTool, Hooks: hooks})
			for _, f := range files {
				fmt.Fprintln(stdio.Out, "created", f)
			}
			if err != nil && len(files) == 0 && !errors.Is(err, scaffold.ErrExists) {
				return usageError{err}
			}
			if err != nil {
				return err // written, but the Go build failed: the error says how to finish
			}
			fmt.Fprintf(stdio.Out, "Next: synaps extensions test %s\n      synaps extensions install --link %s\n", target, target)
			return nil
		},
	}
	cmd.Flags().StringVar(&lang, "lang", "python", "python, node or go")
	cmd.Flags().BoolVar(&withTool, "tool", false, "add a hello tool (default when no --hook is given)")
	cmd.Flags().StringArrayVar(&hooks, "hook", nil, "subscribe to a hook, e.g. before_tool_call (repeatable)")
	cmd.Flags().StringVar(&dir, "dir", ".", "where to create NAME/")
	return cmd
}
