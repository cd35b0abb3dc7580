package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// waitInfo lets a listing show what extensions answered to info.get,
// waiting at most infoWait for one that does not answer.
func waitInfo(ctx context.Context, h *extension.Host) {
	ctx, cancel := context.WithTimeout(ctx, infoWait)
	defer cancel()
	h.WaitInfo(ctx)
}

const infoWait = 2 * time.Second

// extConfigCmd is `synaps extensions config ID [KEY [VALUE]]`: list a
// plugin's config keys with their values and where each comes from, print
// one, or set one in the plugin's config file (checked against its type;
// "" removes it). A running session's extension that subscribed to its
// config hears the change (config.changed).
func extConfigCmd(stdio Stdio) *cobra.Command {
	var asJSON, trust bool
	cmd := &cobra.Command{
		Use:   "config ID [KEY [VALUE]] | config ID KEY=VALUE...",
		Short: "Show a plugin's config, or read or set one key in its config file",
		Long: `With only ID, list every config key the plugin declares (and any other key
in its config file) with its value and where the value comes from: the
environment, the plugin's config file (plugins/<id>/config), the synaps
config (extension.<id>.<key>), the variable named by secret_env, or the
default. Values from secret_env are masked.

With KEY, print that key's value (empty when unset). With KEY and VALUE,
write "KEY = VALUE" to the plugin's config file after checking VALUE
against the key's type; an empty VALUE removes the key.

A Claude Code plugin's options (plugin.json "userConfig") are listed and
set the same way, and several at once as KEY=VALUE: an ordinary one goes
to the synaps config (extension.<id>.<key>), a sensitive one to
plugin-secrets.json in the base directory (private to you) and is never
printed. See docs/plugins.md.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			if err := plugin.CheckID(id); err != nil {
				return usageError{err}
			}
			base, err := baseDir()
			if err != nil {
				return err
			}
			global, err := config.Load(filepath.Join(base, "config"))
			if err != nil {
				return err
			}
			wd, _ := os.Getwd()
			plugins, _ := plugin.Discover(plugin.DiscoverOptions{BaseDir: base, ProjectDir: wd, TrustProject: trust})
			var p *plugin.Plugin
			for _, x := range plugins {
				if x.ID == id {
					p = x
				}
			}
			if p == nil {
				return noPlugin(id, config.PluginsDir(base), idsOf(plugins))
			}
			if p.Manifest != nil && len(p.Manifest.UserConfig) > 0 && userOptionArgs(p, args[1:]) {
				return userOptionsCmd(stdio, base, global, p, args[1:], asJSON)
			}
			if len(args) > 3 {
				return usageError{fmt.Errorf("config takes ID [KEY [VALUE]]; several KEY=VALUE are for a plugin's userConfig options, and %s has none", id)}
			}
			settings := app.PluginSettings(p)
			if p.Manifest == nil || (p.Manifest.Extension == nil && len(settings) == 0) {
				if err := p.LoadErr(); err != nil {
					return fmt.Errorf("plugin %s cannot be read: %v", id, err)
				}
				return fmt.Errorf("plugin %s has no extension and no settings, so it has no config", id)
			}
			if len(args) == 3 {
				file, isSetting, err := app.SetPluginSetting(p, args[1], args[2])
				if !isSetting {
					file, err = extension.SetConfig(p, args[1], args[2], false)
				}
				if err != nil {
					return err
				}
				if args[2] == "" {
					fmt.Fprintf(stdio.Out, "removed %s from %s\n", args[1], file)
				} else {
					fmt.Fprintf(stdio.Out, "set %s = %s in %s\n", args[1], args[2], file)
				}
				return nil
			}
			var values []extension.ConfigValue
			if p.Manifest.Extension != nil {
				values, err = extension.ConfigValues(p, os.Getenv, global, wd)
				if err != nil {
					return err
				}
			}
			if len(args) == 2 {
				for _, v := range settings {
					if v.Field.Key == args[1] && !slices.ContainsFunc(values, func(c extension.ConfigValue) bool { return c.Key == args[1] }) {
						fmt.Fprintln(stdio.Out, v.Value)
						return nil
					}
				}
				for _, v := range values {
					if v.Key == args[1] {
						fmt.Fprintln(stdio.Out, v.String())
						return nil
					}
				}
				return fmt.Errorf("plugin %s has no config key %q; `synaps extensions config %s` lists its keys", id, args[1], id)
			}
			if asJSON {
				type row struct {
					Key         string `json:"key"`
					Value       any    `json:"value"`
					Source      string `json:"source,omitempty"`
					Type        string `json:"type,omitempty"`
					Required    bool   `json:"required,omitempty"`
					Description string `json:"description,omitempty"`
					Error       string `json:"error,omitempty"`
				}
				rows := []row{}
				for _, v := range values {
					r := row{Key: v.Key, Value: v.Value, Source: v.Source, Error: v.Err}
					if v.Secret {
						r.Value = "********"
					}
					if v.Entry != nil {
						r.Type, r.Required, r.Description = v.Entry.Type, v.Entry.Required, v.Entry.Description
					}
					rows = append(rows, r)
				}
				enc := json.NewEncoder(stdio.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			if len(values) == 0 {
				if len(settings) > 0 {
					fmt.Fprint(stdio.Out, "settings:\n"+app.FormatSettings(settings))
					return nil
				}
				fmt.Fprintf(stdio.Out, "plugin %s declares no config\n", id)
				return nil
			}
			w := tabwriter.NewWriter(stdio.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(w, "KEY\tTYPE\tVALUE\tFROM")
			for _, v := range values {
				typ, shown, from := "-", v.String(), v.Source
				if v.Entry != nil && v.Entry.Type != "" {
					typ = v.Entry.Type
				}
				if v.Secret {
					shown = "********"
				}
				switch {
				case v.Err != "":
					shown, from = "(invalid)", "error: "+v.Err
				case v.Source == "":
					shown, from = "(unset)", "-"
					if v.Entry != nil && v.Entry.Required {
						shown = "(unset, required)"
					}
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", v.Key, typ, shown, from)
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if len(settings) > 0 {
				fmt.Fprint(stdio.Out, "\nsettings:\n"+app.FormatSettings(settings))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&trust, "trust-project", false, "include this project's .synaps/plugins")
	return cmd
}
