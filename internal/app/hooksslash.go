package app

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/synaps-cli/synaps/internal/config"
)

// slashHooks is /hooks: the listing of `synaps hooks` for this session,
// and a toggle that turns one hook off or on by id and applies it at once
// (the extensions are reloaded, as /extensions disable does).
func (a *App) slashHooks(ctx context.Context, args []string) (SlashResult, error) {
	if len(args) == 0 || args[0] == "list" {
		list, err := a.ListHooks(ctx)
		if err != nil {
			return SlashResult{}, err
		}
		return SlashResult{Output: FormatHooks(list) + "(/hooks toggle ID turns one off or on again)\n"}, nil
	}
	verb := args[0]
	if len(args) != 2 || !slices.Contains([]string{"disable", "enable", "toggle"}, verb) {
		return SlashResult{}, fmt.Errorf("usage: /hooks [list], /hooks disable ID, /hooks enable ID or /hooks toggle ID")
	}
	id := args[1]
	if verb == "toggle" {
		verb = "disable"
		if slices.Contains(a.Config.List(config.KeyDisabledHooks), id) {
			verb = "enable"
		}
	}
	o := a.opts
	o.BaseDir, o.WorkDir = a.BaseDir, a.WorkDir
	if _, err := SetHookDisabled(ctx, o, id, verb == "disable"); err != nil {
		return SlashResult{}, err
	}
	cfg, err := config.Load(filepath.Join(a.BaseDir, "config"))
	if err != nil {
		return SlashResult{}, err
	}
	a.Config = cfg
	if a.Host != nil {
		a.Host.SetConfig(cfg)
		if err := a.Reload(ctx); err != nil {
			return SlashResult{}, err
		}
	}
	return SlashResult{Output: fmt.Sprintf("%sd %s (saved in %s)\n", verb, id, cfg.Path)}, nil
}
