package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/synaps-cli/synaps/internal/plugin"
)

// Marketplaces: Claude Code's catalogues of plugins
// (.claude-plugin/marketplace.json). `synaps plugins marketplace add`
// keeps a copy of one under <base>/marketplaces/<name>; `synaps plugins
// install NAME@MARKETPLACE` installs the plugin its entry names, as any
// plugin is installed (validated, copied into plugins/).

// Marketplace is a marketplace.json, as far as installing needs it.
type Marketplace struct {
	Name    string             `json:"name"`
	Owner   map[string]any     `json:"owner"`
	Plugins []MarketplaceEntry `json:"plugins"`
	Dir     string             `json:"-"`
	// File is the marketplace file read: Claude Code's
	// .claude-plugin/marketplace.json or SynapsCLI's
	// .synaps-plugin/marketplace.json.
	File string `json:"-"`
}

// MarketplaceEntry is one plugin of a marketplace. Source is a path in
// the marketplace ("./plugins/x") or a git source object.
type MarketplaceEntry struct {
	Name        string          `json:"name"`
	Source      json.RawMessage `json:"source"`
	Description string          `json:"description"`
	Version     string          `json:"version"`
}

const marketplaceFile = ".claude-plugin/marketplace.json"

// synapsMarketplaceFile is SynapsCLI's marketplace file, read when there
// is no Claude Code one. Its entries' "source" is a path in the
// marketplace or a git URL; an entry without one (SynapsCLI's
// index-backed entries) is listed but cannot be installed from here.
const synapsMarketplaceFile = ".synaps-plugin/marketplace.json"

// codexMarketplaceFile is Codex's marketplace file, read when there is
// neither of the others. Its entries' "source" is {"source": "local",
// "path": "./plugins/x"} or {"source": "url", "url": …}, a relative url
// being a path in the marketplace ("./" for a repository that is its own
// plugin, as obra/superpowers is).
const codexMarketplaceFile = ".agents/plugins/marketplace.json"

// marketplacesDir holds the marketplaces added.
func marketplacesDir(base string) string { return filepath.Join(base, "marketplaces") }

// ReadMarketplace reads dir's marketplace.json; errors name the file and
// the field.
func ReadMarketplace(dir string) (*Marketplace, error) {
	file := filepath.Join(dir, marketplaceFile)
	if _, err := os.Stat(file); err != nil {
		for _, other := range []string{synapsMarketplaceFile, codexMarketplaceFile} {
			if _, serr := os.Stat(filepath.Join(dir, other)); serr == nil {
				file = filepath.Join(dir, other)
				break
			}
		}
	}
	synaps := strings.HasSuffix(file, filepath.FromSlash(synapsMarketplaceFile))
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %v; a marketplace is a directory (or git repository) with %s (or SynapsCLI's %s)", file, err, marketplaceFile, synapsMarketplaceFile)
	}
	var m Marketplace
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: not valid JSON: %v", file, err)
	}
	if m.Name == "" || strings.ContainsAny(m.Name, "/\\@ \t") {
		return nil, fmt.Errorf("%s: name %q must be set, without '/', '@' or spaces", file, m.Name)
	}
	for i, p := range m.Plugins {
		if p.Name == "" {
			return nil, fmt.Errorf("%s: plugins[%d].name is empty", file, i)
		}
		if len(p.Source) == 0 && !synaps {
			return nil, fmt.Errorf("%s: plugins[%d] (%s) has no source", file, i, p.Name)
		}
	}
	m.Dir, m.File = dir, file
	return &m, nil
}

// AddMarketplace copies (or clones) the marketplace at src into the
// base directory, replacing an earlier copy of the same name.
func AddMarketplace(ctx context.Context, base, src string) (*Marketplace, error) {
	dir := src
	if isGitURL(src) {
		tmp, err := os.MkdirTemp("", "synaps-marketplace-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = filepath.Join(tmp, "m")
		if out, err := exec.CommandContext(ctx, "git", "clone", "--depth", "1", "--quiet", src, dir).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("git clone %s failed: %v: %s", src, err, strings.TrimSpace(string(out)))
		}
	}
	m, err := ReadMarketplace(dir)
	if err != nil {
		return nil, err
	}
	target := filepath.Join(marketplacesDir(base), m.Name)
	tmp := target + ".new"
	os.RemoveAll(tmp)
	if err := os.MkdirAll(marketplacesDir(base), 0o755); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, err
	}
	if err := copyTree(ctx, dir, tmp); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	os.RemoveAll(filepath.Join(tmp, ".git"))
	os.RemoveAll(target)
	if err := os.Rename(tmp, target); err != nil {
		return nil, err
	}
	m.Dir = target
	return m, nil
}

// Marketplaces lists the marketplaces added, by name.
func Marketplaces(base string) ([]*Marketplace, []string) {
	ents, _ := os.ReadDir(marketplacesDir(base))
	var out []*Marketplace
	var problems []string
	for _, e := range ents {
		if !e.IsDir() || strings.HasSuffix(e.Name(), ".new") {
			continue
		}
		m, err := ReadMarketplace(filepath.Join(marketplacesDir(base), e.Name()))
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, problems
}

// InstallFromMarketplace installs NAME@MARKETPLACE: the entry's source, a
// directory of the marketplace or a git repository, installed as any
// plugin is.
func InstallFromMarketplace(ctx context.Context, base, ref string, o InstallOptions) (*Installed, error) {
	name, _, _ := strings.Cut(ref, "@")
	var path, url, sub string
	arch, isArchive, err := marketArchive(base, ref)
	switch {
	case err != nil:
		return nil, err
	case isArchive:
		tmp, dir, err := fetchArchive(ctx, arch)
		if err != nil {
			return nil, fmt.Errorf("%s: not installed: %w", ref, err)
		}
		defer os.RemoveAll(tmp)
		path = dir
	default:
		if path, url, sub, err = marketSource(base, ref); err != nil {
			return nil, err
		}
	}
	if o.Source == nil {
		o.Source = &plugin.PinSource{Kind: "marketplace", Location: ref}
	}
	if o.Marketplace == "" {
		_, o.Marketplace, _ = strings.Cut(ref, "@")
	}
	if url != "" && sub != "" {
		clone, err := cloneSubdir(ctx, url, sub)
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(clone)
		path, url = filepath.Join(clone, "repo", filepath.FromSlash(sub)), ""
	}
	if url != "" {
		return Install(ctx, base, url, o)
	}
	// Installed under the entry's name, whatever its directory.
	staged, err := os.MkdirTemp("", "synaps-plugin-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(staged)
	dst := filepath.Join(staged, name)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return nil, err
	}
	if err := copyTree(ctx, path, dst); err != nil {
		return nil, err
	}
	inst, err := Install(ctx, base, dst, o)
	if inst == nil && err != nil {
		// Name the marketplace's copy, not the staging directory that is
		// gone when the user reads the message.
		return nil, fmt.Errorf("%s: %s", ref, strings.ReplaceAll(err.Error(), dst, path))
	}
	return inst, err
}

// marketEntry finds NAME@MARKETPLACE's source: a directory inside the
// marketplace (path) or a git repository (url).
func marketEntry(base, ref string) (path, url string, err error) {
	path, url, sub, err := marketSource(base, ref)
	if err == nil && sub != "" {
		return "", "", fmt.Errorf("%s: a git-subdir source installs with `synaps plugins install %s`, not here", ref, ref)
	}
	return path, url, err
}

// marketSource is marketEntry with a git-subdir source's directory in
// the repository (sub, slash-separated, inside it).
func marketSource(base, ref string) (path, url, sub string, err error) {
	name, market, _ := strings.Cut(ref, "@")
	dir := filepath.Join(marketplacesDir(base), market)
	m, err := ReadMarketplace(dir)
	if err != nil {
		return "", "", "", fmt.Errorf("no marketplace %q (add it with `synaps plugins marketplace add DIR|GIT-URL`): %v", market, err)
	}
	for _, p := range m.Plugins {
		if p.Name != name {
			continue
		}
		if len(p.Source) == 0 {
			return "", "", "", fmt.Errorf("%s: plugin %s has no \"source\" (a SynapsCLI index entry); install it from its repository: synaps plugins install GIT-URL", m.File, name)
		}
		var rel string
		if json.Unmarshal(p.Source, &rel) == nil {
			if isGitURL(rel) {
				return "", rel, "", nil
			}
			full := filepath.Join(dir, filepath.FromSlash(rel))
			if r, err := filepath.Rel(dir, full); err != nil || strings.HasPrefix(r, "..") {
				return "", "", "", fmt.Errorf("%s: plugin %s's source %q is outside the marketplace", m.File, name, rel)
			}
			return full, "", "", nil
		}
		var src struct {
			Source string `json:"source"`
			Repo   string `json:"repo"`
			URL    string `json:"url"`
			Path   string `json:"path"` // git-subdir: the plugin's directory in the repository
		}
		if err := json.Unmarshal(p.Source, &src); err != nil {
			return "", "", "", fmt.Errorf("%s: plugin %s: source must be a path or {\"source\": \"github\"|\"git\", …}", m.File, name)
		}
		// Codex's: a local path, or a url that is a path in the marketplace.
		if rel := codexLocal(src.Source, src.Path, src.URL); rel != "" {
			full := filepath.Join(dir, filepath.FromSlash(rel))
			if r, err := filepath.Rel(dir, full); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				return "", "", "", fmt.Errorf("%s: plugin %s's source %q is outside the marketplace", m.File, name, rel)
			}
			return full, "", "", nil
		}
		url := src.URL
		if src.Source == "github" && src.Repo != "" {
			url = "https://github.com/" + src.Repo + ".git"
		}
		sub := ""
		if src.Source == "git-subdir" {
			sub = src.Path
			if url != "" && !isGitURL(url) && strings.Count(url, "/") == 1 {
				url = "https://github.com/" + url + ".git" // owner/repo
			}
			if src.Path == "" || strings.HasPrefix(filepath.Clean(filepath.FromSlash(src.Path)), "..") || filepath.IsAbs(src.Path) {
				return "", "", "", fmt.Errorf("%s: plugin %s: a git-subdir source needs \"path\", a directory inside the repository (got %q)", m.File, name, src.Path)
			}
		}
		if url == "" {
			return "", "", "", fmt.Errorf("%s: plugin %s: a git source needs \"repo\" (github) or \"url\"", m.File, name)
		}
		return "", url, sub, nil
	}
	var names []string
	for _, p := range m.Plugins {
		names = append(names, p.Name)
	}
	return "", "", "", fmt.Errorf("marketplace %s has no plugin %q; it has: %s", market, name, strings.Join(names, ", "))
}

// cloneSubdir clones url (shallow) into a new temporary directory, as
// <tmp>/repo, and checks that sub is a directory in it. The caller
// removes the directory.
func cloneSubdir(ctx context.Context, url, sub string) (string, error) {
	tmp, err := os.MkdirTemp("", "synaps-market-git-")
	if err != nil {
		return "", err
	}
	dst := filepath.Join(tmp, "repo")
	if out, err := exec.CommandContext(ctx, "git", "clone", "--depth", "1", "--quiet", url, dst).CombinedOutput(); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("git clone %s failed: %v: %s", url, err, strings.TrimSpace(string(out)))
	}
	if !dirExists(filepath.Join(dst, filepath.FromSlash(sub))) {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("%s has no directory %q (the git-subdir source's \"path\")", url, sub)
	}
	return tmp, nil
}

// codexLocal is the path in the marketplace a Codex source names
// ({"source": "local", "path"} or {"source": "url"} with a relative url),
// or "" for any other source.
func codexLocal(source, path, url string) string {
	switch {
	case source == "local" && path != "":
		return path
	case source == "url" && url != "" && !isGitURL(url) && !strings.Contains(url, "://"):
		return url
	}
	return ""
}
