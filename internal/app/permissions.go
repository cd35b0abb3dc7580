package app

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// ProjectConfig is a project's own config file, relative to the project
// directory: its permission mode and rules.
const ProjectConfig = ".synaps/config"

// openPermissions builds the session's permission policy from, in order
// of precedence, the flags (Options), the project's .synaps/config and
// the global config. A project's allow rules and mode count only in a
// trusted project (a repository must not grant itself bash); its deny
// and ask rules always count.
func (a *App) openPermissions() error {
	o := a.opts
	var rules permission.Rules
	add := func(f *config.File, trusted bool) error {
		for _, k := range []struct {
			key  string
			list *[]permission.Rule
		}{{config.KeyPermissionsDeny, &rules.Deny}, {config.KeyPermissionsAsk, &rules.Ask}, {config.KeyPermissionsAllow, &rules.Allow}} {
			v, ok := f.Get(k.key)
			if !ok {
				continue
			}
			rs, err := permission.ParseRules(v)
			if err != nil {
				return fmt.Errorf("%s: %s: %v", f.Path, k.key, err)
			}
			if k.key == config.KeyPermissionsAllow && !trusted {
				a.Notes = append(a.Notes, fmt.Sprintf("%s: %s is not used: this project is not trusted; run `synaps trust` here (or pass --trust-project) to use it", f.Path, k.key))
				continue
			}
			*k.list = append(*k.list, permission.Sourced(rs, f.Path+" "+k.key)...)
		}
		return nil
	}
	mode := o.PermissionMode
	readMode := func(f *config.File, trusted bool) error {
		v, ok := f.Get(config.KeyPermissionMode)
		if !ok || mode != "" {
			return nil
		}
		m, err := permission.ParseMode(v)
		if err != nil {
			return fmt.Errorf("%s: %s: %v", f.Path, config.KeyPermissionMode, err)
		}
		if !trusted {
			a.Notes = append(a.Notes, fmt.Sprintf("%s: %s is not used: this project is not trusted; run `synaps trust` here (or pass --trust-project) to use it", f.Path, config.KeyPermissionMode))
			return nil
		}
		mode = m
		return nil
	}
	project, err := config.Load(filepath.Join(a.WorkDir, ProjectConfig))
	if err != nil {
		return err
	}
	a.Notes = append(a.Notes, project.Problems...)
	trusted := o.TrustProject
	if !trusted {
		trusted, _ = plugin.IsTrusted(a.BaseDir, a.WorkDir)
	}
	if err := readMode(project, trusted); err != nil {
		return err
	}
	if err := readMode(a.Config, true); err != nil {
		return err
	}
	rules.Deny = append(rules.Deny, o.Disallowed...)
	// Other agents' plugins may restrict, never grant (pluginformats.go).
	pluginDeny, pluginAsk := a.pluginRules()
	rules.Deny = append(rules.Deny, pluginDeny...)
	rules.Ask = append(rules.Ask, pluginAsk...)
	rules.Allow = append(rules.Allow, o.Allowed...)
	rules.Ask = append(rules.Ask, o.Ask...)
	if err := add(project, trusted); err != nil {
		return err
	}
	if err := add(a.Config, true); err != nil {
		return err
	}
	a.Permissions = permission.New(permission.Config{Mode: mode, Rules: rules, WorkDir: a.WorkDir, Home: o.Getenv("HOME"), AddDirs: o.AddDirs})
	return nil
}

// SaveRule appends an allow rule to the project's .synaps/config (an
// "always" answer) and says where it went.
func (a *App) SaveRule(rule string) (string, error) {
	path := filepath.Join(a.WorkDir, ProjectConfig)
	err := config.Update(path, config.KeyPermissionsAllow, func(v string, _ bool) (string, error) {
		for _, r := range permission.SplitRules(v) {
			if r == rule {
				return v, nil
			}
		}
		if strings.TrimSpace(v) == "" {
			return rule, nil
		}
		return v + ", " + rule, nil
	})
	if err != nil {
		return "", err
	}
	where := path + " " + config.KeyPermissionsAllow
	if ok, _ := plugin.IsTrusted(a.BaseDir, a.WorkDir); !ok {
		where += "; the project is not trusted, so later sessions use it only after `synaps trust`"
	}
	return where, nil
}
