package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/plugin"
)

// InstallOptions modify Install.
type InstallOptions struct {
	// Link symlinks the source directory instead of copying it.
	Link bool
	// Force replaces an installed plugin of the same id.
	Force bool
	// Output receives what the plugin's setup script prints, as it runs.
	Output io.Writer
	// Source, when set, is what the install record says the plugin came
	// from (a marketplace entry, an update); nil: the src argument.
	Source *plugin.PinSource
	// How is the install record's "how": "install" when empty, "update".
	How string
	// Marketplace is the marketplace the plugin comes from: its missing
	// dependencies are installed from there (dependencies.go).
	Marketplace string
	// Config are KEY=VALUE userConfig values given at install
	// (--config), stored before the plugin's first session.
	Config []string

	dependencyChain []string // the plugins whose dependencies are being installed
}

// Installed describes an installed plugin.
type Installed struct {
	ID, Version, Dir string
	Warnings         []string
	// Pin is the install record written (nil when it could not be).
	Pin *plugin.PinRecord
	// Dependencies are the plugins installed for this one ("name version").
	Dependencies []string
}

// Install validates the plugin at src (a directory or a git URL) and
// copies it into baseDir/plugins/<id>, where id is the manifest's name. Nothing is written unless the manifest is valid and the whole tree
// copies: the copy goes to a temporary directory beside the target and is
// renamed into place. Symlinks that point outside the plugin are refused.
func Install(ctx context.Context, baseDir, src string, o InstallOptions) (*Installed, error) {
	if isGitURL(src) {
		if o.Link {
			return nil, errors.New("--link needs a local directory, not a git URL")
		}
		tmp, err := os.MkdirTemp("", "synaps-install-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		name := strings.TrimSuffix(filepath.Base(strings.TrimRight(src, "/")), ".git")
		dst := filepath.Join(tmp, name)
		cmd := exec.CommandContext(ctx, "git", "clone", "--depth", "1", "--quiet", src, dst)
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("git clone %s failed: %v: %s", src, err, strings.TrimSpace(string(out)))
		}
		commit := gitCommit(ctx, dst)
		os.RemoveAll(filepath.Join(dst, ".git"))
		if o.Source == nil {
			o.Source = &plugin.PinSource{Kind: "git", Location: src}
		}
		o.Source.Commit = commit
		return Install(ctx, baseDir, dst, o)
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such directory (%s); give a plugin's directory, a git URL or NAME@MARKETPLACE", src, abs)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory; a plugin is a directory holding %s", src, filepath.Join(plugin.ManifestDir, plugin.ManifestFile))
	}
	// The plugin is installed under its id, the manifest's name, whatever
	// the source directory is called: SynapsCLI routes some things by the
	// directory and some by the name, so keeping them equal keeps
	// published plugins working.
	p := plugin.LoadPlugin(filepath.Base(abs), abs, plugin.ScopeUser)
	if err := p.LoadErr(); err != nil {
		return nil, fmt.Errorf("not installed, the plugin is invalid:\n%w", err)
	}
	// Its Claude Code hooks are read now, as a session would read them:
	// a broken hooks file is said before it is installed.
	_, claudeWarnings, err := CheckClaudeHooks(p)
	if err != nil {
		return nil, fmt.Errorf("not installed, its Claude Code hooks cannot be read:\n%w", err)
	}
	p.Warnings = append(p.Warnings, claudeWarnings...)
	id := p.ID
	p.Warnings = slices.DeleteFunc(p.Warnings, func(w string) bool { return strings.Contains(w, "differs from the manifest name") })
	pluginsDir := filepath.Join(baseDir, "plugins")
	target := filepath.Join(pluginsDir, id)
	if _, err := os.Lstat(target); err == nil && !o.Force {
		return nil, fmt.Errorf("a plugin %q is already installed at %s; pass --force to replace it, or `synaps extensions uninstall %s` first", id, target, id)
	}
	if err := os.MkdirAll(pluginsDir, 0o755); err != nil {
		return nil, err
	}
	added, err := resolveDependencies(ctx, baseDir, id, p.Manifest, o)
	if err != nil {
		return nil, fmt.Errorf("not installed: %w", err)
	}
	res := &Installed{ID: id, Version: p.Manifest.Version, Dir: target, Warnings: p.Warnings, Dependencies: added}
	ext := p.Manifest.Extension
	if o.Link {
		if err := os.RemoveAll(target); err != nil {
			return nil, err
		}
		if err := os.Symlink(abs, target); err != nil {
			return nil, err
		}
		err := setup(ctx, baseDir, id, target, p.Manifest, false, o.Output)
		res.pin(baseDir, o, plugin.PinSource{Kind: "link", Location: abs})
		return res, err
	}
	source := plugin.PinSource{Kind: "dir", Location: abs}
	if o.Source != nil {
		source = *o.Source
	}
	if source.Kind != "git" {
		// The source as found, before its setup script runs.
		if d, _, err := plugin.Digest(abs); err == nil {
			source.SHA256 = d
		}
	}
	tmp, err := os.MkdirTemp(pluginsDir, "."+id+".installing-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(ctx, abs, tmp); err != nil {
		return nil, fmt.Errorf("not installed: %w", err)
	}
	unpacked, note, err := installPrebuilt(abs, tmp, ext)
	if err != nil {
		return nil, fmt.Errorf("not installed: %w", err)
	}
	if note != "" {
		res.Warnings = append(res.Warnings, note)
	}
	if err := os.Chmod(tmp, info.Mode().Perm()); err != nil {
		return nil, err
	}
	if err := keepUserConfig(target, tmp); err != nil {
		return nil, fmt.Errorf("not installed: %w", err)
	}
	if err := os.RemoveAll(target); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, target); err != nil {
		return nil, err
	}
	err = setup(ctx, baseDir, id, target, p.Manifest, unpacked, o.Output)
	// Pinned after setup: what it built or fetched is part of what runs.
	res.pin(baseDir, o, source)
	return res, err
}

// pin writes the install record of the plugin just installed; a plugin
// that cannot be pinned is installed all the same, with a warning that
// says why (it then lists as unpinned).
func (res *Installed) pin(baseDir string, o InstallOptions, src plugin.PinSource) {
	how := o.How
	if how == "" {
		how = "install"
	}
	p := plugin.LoadPlugin(res.ID, res.Dir, plugin.ScopeUser)
	p.ID = res.ID
	r, err := plugin.Pin(baseDir, p, how, src)
	if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("installed but not pinned to its content, so changes to its files will not be noticed: %v", err))
		return
	}
	res.Pin = r
}

// gitCommit is the commit checked out in dir, or "" when git cannot say.
func gitCommit(ctx context.Context, dir string) string {
	out, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// setup runs the plugin's setup script once: extension.setup, else
// provides.sidecar.setup (SynapsCLI runs at most one), unless a prebuilt
// binary was unpacked instead. It runs confined (setupPolicy). A failure
// is a *SetupError; the plugin stays installed.
func setup(ctx context.Context, baseDir, id, dir string, m *plugin.Manifest, unpacked bool, out io.Writer) error {
	script := ""
	if m.Extension != nil {
		script = m.Extension.Setup
	}
	if script == "" && m.Sidecar != nil {
		script = m.Sidecar.Setup
	}
	if script == "" || unpacked {
		return nil
	}
	if out != nil {
		fmt.Fprintf(out, "running its setup script: bash %s (in %s)\n", script, dir)
	}
	return runSetup(ctx, dir, script, out, setupPolicy(baseDir, id, dir, m))
}

func isGitURL(s string) bool {
	for _, p := range []string{"https://", "http://", "git@", "ssh://", "git://", "file://"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return strings.HasSuffix(s, ".git") && !dirExists(s)
}

func dirExists(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// copyTree copies src into dst without following symlinks. A symlink is
// recreated only when it resolves inside src; one that escapes the tree
// stops the copy. .git is left out.
func copyTree(ctx context.Context, src, dst string) error {
	root, err := filepath.EvalSymlinks(src)
	if err != nil {
		return err
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, err := filepath.Rel(src, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			return fmt.Errorf("%s is outside the plugin directory", path)
		}
		if rel == "." {
			return nil
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		out := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			resolved, err := filepath.EvalSymlinks(path)
			if err != nil {
				return fmt.Errorf("symlink %s is broken (%s); fix or remove it", rel, link)
			}
			if inside, _ := filepath.Rel(root, resolved); inside == ".." || strings.HasPrefix(inside, ".."+string(filepath.Separator)) || filepath.IsAbs(inside) {
				return fmt.Errorf("symlink %s points outside the plugin (%s); copy the file into the plugin instead", rel, link)
			}
			return os.Symlink(link, out)
		case d.IsDir():
			return os.Mkdir(out, info.Mode().Perm()|0o700)
		case info.Mode().IsRegular():
			return copyFile(path, out, info.Mode().Perm())
		default:
			return fmt.Errorf("%s is not a regular file, directory or symlink; plugins cannot contain it", rel)
		}
	})
}

func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Uninstall removes the user plugin whose id is id (a symlinked plugin
// loses only the link). It is found by id, so a hand-copied directory
// named otherwise is removed too; a directory named id whose manifest
// does not load is removed as well.
func Uninstall(baseDir, id string) error {
	if err := plugin.CheckID(id); err != nil {
		return err
	}
	plugins, _ := plugin.Discover(plugin.DiscoverOptions{BaseDir: baseDir})
	for _, p := range plugins {
		if p.ID == id && p.Scope == plugin.ScopeUser {
			plugin.RemovePin(baseDir, id)
			return os.RemoveAll(p.Dir)
		}
	}
	target := filepath.Join(baseDir, "plugins", id)
	if _, err := os.Lstat(target); err != nil {
		return fmt.Errorf("no plugin %q is installed in %s", id, filepath.Join(baseDir, "plugins"))
	}
	plugin.RemovePin(baseDir, id)
	return os.RemoveAll(target)
}

// keepUserConfig carries the plugin's config file (plugins/<id>/config:
// the options `synaps extensions config ID KEY VALUE` set, the user's,
// not the plugin's, and not in its pin) from the installed copy at old
// into the new one at dir, so an update or a forced re-install does not
// silently drop the user's settings. A new version that ships a config
// file of its own keeps it.
func keepUserConfig(old, dir string) error {
	from := filepath.Join(old, "config")
	info, err := os.Stat(from)
	if err != nil || !info.Mode().IsRegular() {
		return nil // nothing to keep
	}
	to := filepath.Join(dir, "config")
	if _, err := os.Lstat(to); err == nil {
		return nil
	}
	data, err := os.ReadFile(from)
	if err != nil {
		return fmt.Errorf("keeping your settings in %s: %w", from, err)
	}
	return os.WriteFile(to, data, info.Mode().Perm())
}
