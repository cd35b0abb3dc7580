package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/plugin"
)

// Plugin dependencies (Claude Code's plugin.json "dependencies"): before
// a plugin is installed, each plugin it names must be installed in a
// version its range allows. One that is missing is installed from the
// marketplace the plugin comes from (or the one the dependency names),
// as Claude Code resolves them; otherwise the install stops with an
// error that names the dependency and the command that installs it.
// Nothing of the plugin is written before its dependencies are in place.

// resolveDependencies installs or checks m's dependencies for plugin id;
// o.Marketplace is the marketplace id comes from ("" for a directory or
// git URL). It returns the dependencies it installed.
func resolveDependencies(ctx context.Context, base, id string, m *plugin.Manifest, o InstallOptions) ([]string, error) {
	if m == nil || len(m.Dependencies) == 0 {
		return nil, nil
	}
	chain := append(slices.Clone(o.dependencyChain), id)
	var added []string
	for _, d := range m.Dependencies {
		if slices.Contains(chain, d.Name) {
			return added, fmt.Errorf("%s: dependency %s: a cycle (%s → %s); plugins cannot depend on each other in a ring", m.File, d.Name, strings.Join(chain, " → "), d.Name)
		}
		have, installed := installedVersion(base, d.Name)
		if installed {
			if !d.Range.Allows(have) && d.Range.String() != "" {
				return added, fmt.Errorf("%s needs plugin %s %s, but %s %s is installed; update it (`synaps plugins update %s`) to a version in that range", id, d.Name, d.Range, d.Name, orUnknown(have), d.Name)
			}
			continue
		}
		market := d.Marketplace
		if market == "" {
			market = o.Marketplace
		}
		how := fmt.Sprintf("install it first: synaps plugins install %s", d.Name)
		if market != "" {
			how = fmt.Sprintf("install it first: synaps plugins install %s@%s", d.Name, market)
		} else {
			how += "  (a directory or git URL), or NAME@MARKETPLACE"
		}
		if market == "" || !marketHas(base, market, d.Name) {
			where := ""
			if market != "" {
				where = fmt.Sprintf(" (marketplace %s has no plugin %q, or is not added)", market, d.Name)
			}
			return added, fmt.Errorf("%s needs plugin %s, which is not installed%s; %s", id, d, where, how)
		}
		if o.Output != nil {
			fmt.Fprintf(o.Output, "installing dependency %s from marketplace %s\n", d.Name, market)
		}
		sub := InstallOptions{Output: o.Output, Marketplace: market, dependencyChain: chain}
		inst, err := InstallFromMarketplace(ctx, base, d.Name+"@"+market, sub)
		if err != nil && inst == nil {
			return added, fmt.Errorf("%s needs plugin %s; installing it from %s failed: %w", id, d, market, err)
		}
		if d.Range.String() != "" && !d.Range.Allows(inst.Version) {
			return append(added, d.Name), fmt.Errorf("%s needs plugin %s %s, but marketplace %s has version %s (installed all the same; `synaps plugins uninstall %s` removes it)", id, d.Name, d.Range, market, orUnknown(inst.Version), d.Name)
		}
		added = append(added, d.Name+" "+inst.Version)
		added = append(added, inst.Dependencies...)
	}
	return added, nil
}

// installedVersion is the version of the user plugin id, and whether it
// is installed at all.
func installedVersion(base, id string) (string, bool) {
	dir := filepath.Join(base, "plugins", id)
	if _, err := os.Stat(dir); err != nil {
		return "", false
	}
	p := plugin.LoadPlugin(id, dir, plugin.ScopeUser)
	if p.Manifest == nil {
		return "", true
	}
	return p.Manifest.Version, true
}

// marketHas reports whether the added marketplace market lists name.
func marketHas(base, market, name string) bool {
	m, err := ReadMarketplace(filepath.Join(marketplacesDir(base), market))
	if err != nil {
		return false
	}
	return slices.ContainsFunc(m.Plugins, func(e MarketplaceEntry) bool { return e.Name == name })
}

func orUnknown(v string) string {
	if v == "" {
		return "(no version)"
	}
	return v
}

// Dependents are the user plugins whose "dependencies" name id: after
// id is uninstalled they run without it, which the uninstall says.
func Dependents(base, id string) []string {
	plugins, _ := plugin.Discover(plugin.DiscoverOptions{BaseDir: base})
	var out []string
	for _, p := range plugins {
		if p.Manifest == nil || p.ID == id {
			continue
		}
		if slices.ContainsFunc(p.Manifest.Dependencies, func(d plugin.Dependency) bool { return d.Name == id }) {
			out = append(out, p.ID)
		}
	}
	return out
}
