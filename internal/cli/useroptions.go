package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// `synaps plugins config ID [KEY=VALUE…]` for a Claude Code plugin's
// userConfig options (app/userconfig.go): list them, print one, or set
// some. Sensitive values are never printed.

// userOptionArgs reports whether args are for p's options: none (the
// listing), KEY=VALUE pairs, or KEY [VALUE] naming one of them.
func userOptionArgs(p *plugin.Plugin, args []string) bool {
	if len(args) == 0 {
		return true
	}
	if strings.Contains(args[0], "=") {
		return true
	}
	for _, o := range p.Manifest.UserConfig {
		if o.Key == args[0] {
			return len(args) <= 2
		}
	}
	return false
}

func userOptionsCmd(stdio Stdio, base string, cfg *config.File, p *plugin.Plugin, args []string, asJSON bool) error {
	switch {
	case len(args) == 2 && !strings.Contains(args[0], "="):
		args = []string{args[0] + "=" + args[1]}
		fallthrough
	case len(args) > 0 && strings.Contains(args[0], "="):
		done, err := app.SetUserOptions(base, p, args)
		for _, d := range done {
			fmt.Fprintf(stdio.Out, "set %s\n", d)
		}
		if err != nil {
			return usageError{err}
		}
		return nil
	}
	vals := app.UserOptions(base, cfg, p)
	if len(args) == 1 {
		for _, v := range vals {
			if v.Option.Key == args[0] {
				if v.Option.Sensitive && v.From != "" {
					fmt.Fprintf(stdio.Out, "(sensitive: set in %s, not shown)\n", app.SecretsFile(base))
					return nil
				}
				fmt.Fprintln(stdio.Out, v.Value)
				return nil
			}
		}
	}
	if asJSON {
		type row struct {
			Key         string `json:"key"`
			Type        string `json:"type"`
			Value       string `json:"value,omitempty"`
			From        string `json:"from,omitempty"`
			Required    bool   `json:"required,omitempty"`
			Sensitive   bool   `json:"sensitive,omitempty"`
			Title       string `json:"title,omitempty"`
			Description string `json:"description,omitempty"`
		}
		rows := []row{}
		for _, v := range vals {
			r := row{Key: v.Option.Key, Type: v.Option.Type, Value: v.Value, From: v.From, Required: v.Option.Required, Sensitive: v.Option.Sensitive, Title: v.Option.Title, Description: v.Option.Description}
			if v.Option.Sensitive && v.From != "" {
				r.Value = "********"
			}
			rows = append(rows, r)
		}
		enc := json.NewEncoder(stdio.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	w := tabwriter.NewWriter(stdio.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "KEY\tTYPE\tVALUE\tFROM\tTITLE")
	for _, v := range vals {
		shown, from := v.Value, v.From
		switch {
		case v.From == "" && v.Option.Required:
			shown, from = "(unset, required)", "-"
		case v.From == "":
			shown, from = "(unset)", "-"
		case v.Option.Sensitive:
			shown = "********"
		}
		typ := v.Option.Type
		if v.Option.Sensitive {
			typ += ", sensitive"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", v.Option.Key, typ, shown, from, v.Option.Title)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	for _, m := range app.MissingOptions(base, cfg, p) {
		fmt.Fprintln(stdio.Err, "warning: "+m)
	}
	return nil
}

// installOptions sets the --config values of a plugin just installed,
// asks for the others on a terminal (askOptions), then warns of each
// required option still without a value.
func installOptions(stdio Stdio, base, id string, pairs []string) error {
	p := plugin.LoadPlugin(id, filepath.Join(config.PluginsDir(base), id), plugin.ScopeUser)
	if p.Manifest == nil {
		return nil
	}
	if len(pairs) > 0 {
		if len(p.Manifest.UserConfig) == 0 {
			return usageError{fmt.Errorf("--config: plugin %s declares no userConfig options", id)}
		}
		done, err := app.SetUserOptions(base, p, pairs)
		for _, d := range done {
			fmt.Fprintf(stdio.Out, "set %s\n", d)
		}
		if err != nil {
			return fmt.Errorf("--config: %v (the plugin is installed; set the options with `synaps plugins config %s KEY=VALUE`)", err, id)
		}
	}
	cfg, err := config.Load(filepath.Join(base, "config"))
	if err != nil {
		return err
	}
	askOptions(stdio, base, cfg, p)
	if cfg, err = config.Load(filepath.Join(base, "config")); err != nil {
		return err
	}
	for _, m := range app.MissingOptions(base, cfg, p) {
		fmt.Fprintln(stdio.Err, "warning: "+m)
	}
	return nil
}
