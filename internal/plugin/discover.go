package plugin

import (
	"github.com/synaps-cli/synaps/internal/trust"

	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/safefile"
)

// Scope says where a plugin was found.
type Scope string

const (
	ScopeUser    Scope = "user"    // $SYNAPS_BASE_DIR/plugins
	ScopeProject Scope = "project" // ./.synaps/plugins of a project
)

// Plugin is one directory under a plugins dir, with its manifest or the
// reason it could not be read.
type Plugin struct {
	// ID names the plugin everywhere: tool ids <id>:<tool>, commands
	// /<id>:<name>, its log, config, memory namespace, disabled_plugins
	// and chain order. It is the manifest's "name" (SynapsCLI routes
	// commands, settings and sidecars by it, so one id must serve both);
	// the directory name stands in only when the manifest gives no
	// usable name. A directory named otherwise draws a warning.
	ID string
	// Dir is the plugin root as found (a symlink is kept as the path the
	// user made, so SYNAPS_PLUGIN_ROOT reads as they expect).
	Dir   string
	Scope Scope
	// Manifest is nil when Err is set.
	Manifest *Manifest
	Err      error
	// ExtensionErr is set when only the manifest's "extension" object is
	// invalid: the plugin is partially loaded — its skills, commands and
	// other parts still load (as in SynapsCLI, where a bad extension does
	// not take the plugin's skills with it), Manifest.Extension is nil and
	// nothing is spawned.
	ExtensionErr error
	// Disabled: listed in disabled_plugins; never spawned.
	Disabled bool
	// Untrusted: a project plugin whose project is not trusted, or whose
	// files are not what `synaps trust` approved (Held); never spawned.
	Untrusted bool
	// Held says why a trusted project's plugin is held back ("changed
	// since trusted", "new since trusted"); empty otherwise.
	Held string
	// PinHeld: plugins.verify = strict and its files changed since install
	// (pin.go); Err says so and how to approve it.
	PinHeld bool
	// Warnings are non-fatal notes (name differs from id, manifest warnings).
	Warnings []string
	// BrokenGuard is set when the manifest did not load (Err) but its raw
	// text asks for failure_policy "closed": the tool-hook subscriptions
	// the plugin is held to, so the calls it would have judged are blocked
	// instead of running unguarded. Nil otherwise.
	BrokenGuard []hook.Subscription
}

// LoadErr is why the plugin, or its extension, did not load; nil when
// everything did.
func (p *Plugin) LoadErr() error {
	if p.Err != nil {
		return p.Err
	}
	return p.ExtensionErr
}

// DirName is the name of the plugin's directory, which differs from ID
// when the directory was named by hand.
func (p *Plugin) DirName() string { return filepath.Base(p.Dir) }

// Spawnable reports whether the plugin starts a process.
func (p *Plugin) Spawnable() bool {
	return p.Err == nil && !p.Disabled && !p.Untrusted && p.Manifest != nil && p.Manifest.Extension != nil
}

// discoveries counts Discover calls (Discoveries).
var discoveries atomic.Int64

// Discoveries is how many times this process has discovered plugins. A
// discovery reads every manifest and, for a trusted project or
// plugins.verify = strict, takes every plugin's digest, so a session
// start does it once and shares the list (TestOpenDiscoversPluginsOnce
// reads this count).
func Discoveries() int64 { return discoveries.Load() }

// DiscoverOptions says where to look.
type DiscoverOptions struct {
	// BaseDir is $SYNAPS_BASE_DIR; plugins are in BaseDir/plugins.
	BaseDir string
	// ProjectDir is the project root; its plugins are in
	// ProjectDir/.synaps/plugins. Empty: no project plugins.
	ProjectDir string
	// TrustProject trusts ProjectDir without consulting trusted-projects
	// (--trust-project).
	TrustProject bool
	// Disabled lists plugin ids never to spawn (config disabled_plugins).
	Disabled []string
	// Verify is config plugins.verify: "strict" holds the user plugins
	// whose files changed since install (pin.go); anything else only
	// lists them as modified.
	Verify string
}

// Discover lists the plugins in id order, which is also the hook chain
// order. A project plugin shadows a user plugin of the same id. Every
// directory shows up, loaded or not, so nothing fails silently.
//
// A plugins directory that cannot be read (a file, a symlink loop, no
// permission) is reported in the error, one per directory, and the plugins
// of the directories that could be read are returned with it: at start
// that is a warning, on reload a reason to keep the running set. An
// untrusted project's plugins are never read: only the names of the
// entries in its .synaps/plugins are listed, and if even that fails the
// project simply has no plugins to list.
func Discover(o DiscoverOptions) ([]*Plugin, error) {
	discoveries.Add(1)
	byID := map[string]*Plugin{}
	var extra []*Plugin // untrusted project plugins that share a user plugin's id
	var problems []error
	if err := scanDir(filepath.Join(o.BaseDir, "plugins"), ScopeUser, byID); err != nil {
		problems = append(problems, err)
	}
	if o.ProjectDir != "" {
		trusted := o.TrustProject
		if !trusted {
			var err error
			trusted, err = IsTrusted(o.BaseDir, o.ProjectDir)
			if err != nil {
				problems = append(problems, fmt.Errorf("cannot read %s, so the project counts as untrusted: %w", filepath.Join(o.BaseDir, TrustedProjectsFile), err))
			}
		}
		project := map[string]*Plugin{}
		dir := filepath.Join(o.ProjectDir, ".synaps", "plugins")
		if trusted {
			if err := scanDir(dir, ScopeProject, project); err != nil {
				problems = append(problems, err)
			}
			if !o.TrustProject {
				holdChanged(o.BaseDir, o.ProjectDir, project)
			}
		} else {
			listUntrusted(dir, project)
		}
		for id, p := range project {
			if _, user := byID[id]; user && (!trusted || p.Untrusted) {
				// An untrusted project must not switch off a user's
				// plugin (a guard, say) by shipping one of the same id:
				// both are listed, and only the user's runs.
				extra = append(extra, p)
				continue
			}
			byID[id] = p
		}
	}
	disabled := map[string]bool{}
	for _, id := range o.Disabled {
		disabled[id] = true
	}
	out := make([]*Plugin, 0, len(byID)+len(extra))
	for _, p := range byID {
		out = append(out, p)
	}
	out = append(out, extra...)
	for _, p := range out {
		p.Disabled = disabled[p.ID]
	}
	if o.Verify == VerifyStrict {
		holdModified(o.BaseDir, out)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].ID != out[j].ID {
			return out[i].ID < out[j].ID
		}
		return out[i].Scope == ScopeUser
	})
	return out, errors.Join(problems...)
}

// scanDir reads one plugins directory. A missing directory has no plugins.
func scanDir(dir string, scope Scope, into map[string]*Plugin) error {
	entries, err := readDirOnly(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read the plugins directory %s (%w); its plugins are not loaded: make it a directory of plugin directories, or remove it", dir, err)
	}
	var problems []error
	for _, ent := range entries {
		name := ent.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		info, err := os.Stat(path) // follows symlinks: dev-mode plugins
		if err != nil {
			into[name] = &Plugin{ID: name, Dir: path, Scope: scope,
				Err: fmt.Errorf("%s: broken link or unreadable directory (%v); remove it or fix the link", path, err)}
			continue
		}
		if !info.IsDir() {
			continue
		}
		p := LoadPlugin(name, path, scope)
		if other, taken := into[p.ID]; taken {
			// Two directories whose manifests give one name: the first
			// (in directory order) keeps it, the other is refused under
			// its directory name, so neither is silently shadowed.
			p = &Plugin{ID: name, Dir: path, Scope: scope, Manifest: p.Manifest,
				Err: fmt.Errorf("%s: the manifest name %q is already the id of the plugin in %s; two plugins cannot share an id: rename one (\"name\" in %s)",
					path, p.ID, other.Dir, filepath.Join(ManifestDir, ManifestFile))}
			if _, taken := into[name]; taken {
				problems = append(problems, p.Err)
				continue
			}
		}
		into[p.ID] = p
	}
	return errors.Join(problems...)
}

// readDirOnly reads a directory, refusing anything else before opening it
// (opening a named pipe would block).
func readDirOnly(dir string) ([]os.DirEntry, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("it is a %s, not a directory", safefile.Kind(info.Mode()))
	}
	return os.ReadDir(dir)
}

// holdChanged marks the plugins of a trusted project whose files are
// not what `synaps trust` approved (trust.HeldPlugins) as untrusted, so
// a plugin edited or added after the project was trusted is not spawned
// until the user approves it again.
func holdChanged(base, projectDir string, project map[string]*Plugin) {
	held := trust.HeldPlugins(base, projectDir)
	for id, p := range project {
		if r, ok := held[filepath.Base(p.Dir)]; ok {
			project[id] = &Plugin{ID: p.ID, Dir: p.Dir, Scope: ScopeProject, Untrusted: true, Held: string(r)}
		}
	}
}

// listUntrusted lists the entries of an untrusted project's plugins
// directory by name, without following a link or reading a file: whatever
// is there, it cannot stop synaps or reach it. A plain file is not a
// plugin; anything else is listed as an untrusted plugin.
func listUntrusted(dir string, into map[string]*Plugin) {
	entries, err := readDirOnly(dir)
	if err != nil {
		return
	}
	for _, ent := range entries {
		name := ent.Name()
		if strings.HasPrefix(name, ".") || ent.Type().IsRegular() {
			continue
		}
		into[name] = &Plugin{ID: name, Dir: filepath.Join(dir, name), Scope: ScopeProject, Untrusted: true}
	}
}

// LoadPlugin reads one plugin directory's manifest and checks what can be
// checked without spawning it. dirName is the directory's name; the
// plugin's id is its manifest name when that is usable, else dirName.
func LoadPlugin(dirName, dir string, scope Scope) *Plugin {
	p := &Plugin{ID: dirName, Dir: dir, Scope: scope}
	m, err := LoadManifest(dir)
	if m != nil && m.Name != "" && CheckID(m.Name) == nil && !nameFaulty(err) {
		p.ID = m.Name
	}
	if strings.ContainsAny(p.ID, ": \t") {
		p.Err = fmt.Errorf("%s: the plugin directory name %q contains ':' or whitespace, but it becomes the prefix of tool ids (<plugin>:<tool>); rename the directory", dir, p.ID)
		return p
	}
	if err != nil && m != nil && extensionOnly(err) {
		// Only the extension is broken: the rest of the plugin loads.
		p.BrokenGuard = brokenGuardSubs(dir, m, err)
		p.ExtensionErr = err
		m.Extension = nil
		err = nil
	}
	if err != nil {
		p.Err = err
		if m != nil {
			// A typo warning ("entrypoint") often explains the error.
			p.Warnings = m.Warnings
		}
		p.BrokenGuard = brokenGuardSubs(dir, m, err)
		return p
	}
	p.Manifest = m
	p.Warnings = append(p.Warnings, m.Warnings...)
	p.Warnings = append(p.Warnings, p.pathWarnings()...)
	if note := p.NothingNote(); note != "" {
		p.Warnings = append(p.Warnings, note)
	}
	if p.ID != dirName {
		p.Warnings = append(p.Warnings, fmt.Sprintf("the directory name %q differs from the manifest name %q; the plugin id is %q (synaps extensions install names the directory after the manifest; rename it to %q)", dirName, p.ID, p.ID, p.ID))
	}
	return p
}

// nameFaulty reports whether err holds a problem with the manifest's
// "name", which then cannot be the plugin's id.
func nameFaulty(err error) bool {
	for _, e := range Errors(err) {
		var me *ManifestError
		if errors.As(e, &me) && (me.Field == "name" || me.Field == "") {
			return true
		}
	}
	return false
}

// extensionOnly reports whether every problem in err lies inside the
// manifest's "extension" object.
func extensionOnly(err error) bool {
	errs := Errors(err)
	for _, e := range errs {
		var me *ManifestError
		if !errors.As(e, &me) || !(me.Field == "extension" || strings.HasPrefix(me.Field, "extension.") || strings.HasPrefix(me.Field, "extension[")) {
			return false
		}
	}
	return len(errs) > 0
}

// TrustedProjectsFile lists trusted project directories, one absolute path a
// line, in the base dir.
const TrustedProjectsFile = "trusted-projects"

// IsTrusted reports whether projectDir is listed in trusted-projects.
// A line must be the exact path: nothing is trimmed (a project "proj "
// is not "proj"), and a path with a control character is never trusted,
// since a newline in it would make one entry read as two.
func IsTrusted(baseDir, projectDir string) (bool, error) {
	abs, err := filepath.Abs(projectDir)
	if err != nil {
		return false, err
	}
	if CheckTrustPath(abs) != nil {
		return false, nil
	}
	f, err := os.Open(filepath.Join(baseDir, TrustedProjectsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r") // a file edited on Windows
		if line != "" && !strings.HasPrefix(line, "#") && filepath.Clean(line) == abs {
			return true, nil
		}
	}
	return false, sc.Err()
}

// CheckTrustPath says why a directory cannot be stored in
// trusted-projects (one path a line), or returns nil.
func CheckTrustPath(dir string) error {
	for _, r := range dir {
		if unicode.IsControl(r) {
			return fmt.Errorf("cannot trust %q: its path holds the control character %U, which trusted-projects cannot store exactly (one path a line); rename the directory", dir, r)
		}
	}
	if !utf8.ValidString(dir) {
		return fmt.Errorf("cannot trust %q: its path is not valid UTF-8; rename the directory", dir)
	}
	return nil
}

// ManifestFile is the manifest path for messages, or the plugin dir when
// the manifest did not load.
func (p *Plugin) ManifestFile() string {
	if p.Manifest != nil && p.Manifest.File != "" {
		return p.Manifest.File
	}
	return p.Dir
}

// LaunchField names the manifest field that launches the extension.
func (m *ExtensionManifest) LaunchField() string {
	if m.EntryPoint != "" {
		return "extension.entry_point"
	}
	return "extension.command"
}
