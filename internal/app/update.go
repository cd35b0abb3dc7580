package app

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/plugin"
)

// Update is a new version of an installed plugin, staged but not yet
// installed: `synaps plugins update` shows what it changes in what the
// plugin may do (Added, Removed) and installs it only once the user
// agrees (Apply).
type Update struct {
	ID string
	// Old is the plugin as installed, New the staged version.
	Old, New *plugin.Plugin
	// Source is where New came from; Record the old install record (nil
	// for an unpinned plugin).
	Source plugin.PinSource
	Record *plugin.PinRecord
	// Added and Removed are CapabilityDiff(Old, New).
	Added, Removed []string
	// Files lists the files that differ between the two (DiffFiles).
	Files []string
	// staged is New's directory; tmp what Close removes.
	staged, tmp string
}

// PrepareUpdate stages the new version of the user plugin id from
// `from` (a directory, git URL or NAME@MARKETPLACE), or, when from is
// "", from where its install record says it came.
func PrepareUpdate(ctx context.Context, base, id, from string) (*Update, error) {
	if err := plugin.CheckID(id); err != nil {
		return nil, err
	}
	plugins, _ := plugin.Discover(plugin.DiscoverOptions{BaseDir: base})
	var old *plugin.Plugin
	for _, p := range plugins {
		if p.ID == id && p.Scope == plugin.ScopeUser {
			old = p
		}
	}
	if old == nil {
		return nil, fmt.Errorf("no plugin %q is installed in %s; `synaps plugins install SRC` installs one", id, filepath.Join(base, "plugins"))
	}
	rec, err := plugin.ReadPin(base, id)
	if err != nil && from == "" {
		return nil, err
	}
	u := &Update{ID: id, Old: old, Record: rec}
	if from == "" {
		switch {
		case rec == nil:
			return nil, fmt.Errorf("%s has no install record, so synaps does not know where it came from: `synaps plugins update %s DIR|GIT-URL|NAME@MARKETPLACE` says where", id, id)
		case rec.Source.Kind == "link":
			return nil, fmt.Errorf("%s is linked to %s (installed with --link): its files are that directory's, so there is nothing to update", id, rec.Source.Location)
		case rec.Source.Location == "":
			return nil, fmt.Errorf("%s's install record (%s) does not say where it came from: `synaps plugins update %s DIR|GIT-URL|NAME@MARKETPLACE` says where", id, plugin.PinFile(base, id), id)
		}
		from = rec.Source.Location
	}
	if err := u.stage(ctx, base, from); err != nil {
		u.Close()
		return nil, err
	}
	u.New = plugin.LoadPlugin(filepath.Base(u.staged), u.staged, plugin.ScopeUser)
	if err := u.New.LoadErr(); err != nil {
		u.Close()
		return nil, fmt.Errorf("not updated, the new version from %s is invalid:\n%w", from, err)
	}
	if u.New.ID != id {
		u.Close()
		return nil, fmt.Errorf("not updated: %s holds the plugin %q, not %q", from, u.New.ID, id)
	}
	u.Added, u.Removed = CapabilityDiff(old, u.New)
	_, oldFiles, _ := plugin.Digest(old.Dir)
	_, newFiles, _ := plugin.Digest(u.staged)
	u.Files = plugin.DiffFiles(oldFiles, newFiles)
	return u, nil
}

// stage brings the new version into a temporary directory named after
// the plugin (or, for a local directory, reads it where it is).
func (u *Update) stage(ctx context.Context, base, from string) error {
	var err error
	if u.tmp, err = os.MkdirTemp("", "synaps-update-"); err != nil {
		return err
	}
	u.staged = filepath.Join(u.tmp, u.ID)
	switch {
	case isGitURL(from):
		u.Source = plugin.PinSource{Kind: "git", Location: from}
		return u.clone(ctx, from)
	case marketRef(from):
		u.Source = plugin.PinSource{Kind: "marketplace", Location: from}
		if arch, ok, err := marketArchive(base, from); err != nil {
			return err
		} else if ok {
			tmp, dir, err := fetchArchive(ctx, arch)
			if err != nil {
				return err
			}
			defer os.RemoveAll(tmp)
			if err := os.Mkdir(u.staged, 0o755); err != nil {
				return err
			}
			return copyTree(ctx, dir, u.staged)
		}
		path, url, err := marketEntry(base, from)
		if err != nil {
			return err
		}
		if url != "" {
			return u.clone(ctx, url)
		}
		from = path
	default:
		abs, err := filepath.Abs(from)
		if err != nil {
			return err
		}
		if !dirExists(abs) {
			return fmt.Errorf("%s is not a directory, a git URL or NAME@MARKETPLACE", from)
		}
		u.Source = plugin.PinSource{Kind: "dir", Location: abs}
		from = abs
	}
	if err := os.Mkdir(u.staged, 0o755); err != nil {
		return err
	}
	return copyTree(ctx, from, u.staged)
}

func (u *Update) clone(ctx context.Context, url string) error {
	if out, err := exec.CommandContext(ctx, "git", "clone", "--depth", "1", "--quiet", url, u.staged).CombinedOutput(); err != nil {
		return fmt.Errorf("git clone %s failed: %v: %s", url, err, strings.TrimSpace(string(out)))
	}
	u.Source.Commit = gitCommit(ctx, u.staged)
	return os.RemoveAll(filepath.Join(u.staged, ".git"))
}

// marketRef reports whether s is NAME@MARKETPLACE rather than a path.
func marketRef(s string) bool {
	name, market, ok := strings.Cut(s, "@")
	return ok && name != "" && market != "" && !strings.ContainsAny(s, "/\\:") && !dirExists(s)
}

// Apply installs the staged version in place of the old one (as
// `install --force` would) and pins it.
func (u *Update) Apply(ctx context.Context, base string, o InstallOptions) (*Installed, error) {
	o.Force, o.Link = true, false
	src := u.Source
	o.Source, o.How = &src, "update"
	return Install(ctx, base, u.staged, o)
}

// Close removes the staged copy.
func (u *Update) Close() {
	if u.tmp != "" {
		os.RemoveAll(u.tmp)
	}
}
