package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"text/tabwriter"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/lsp"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/safefile"
	"github.com/synaps-cli/synaps/internal/sandbox"
	"github.com/synaps-cli/synaps/internal/tool"
)

// Language servers from plugins (Claude Code's .lsp.json / lspServers):
// after the edit and write tools change a file a server serves, the new
// errors it reports join the tool's result (internal/lsp). Servers start
// at the first such edit; --no-extensions, and a disabled or untrusted
// plugin, start none.

// lspServers holds the session's language servers (nil: none), swapped
// when the plugins are reloaded while tools may be running.
type lspServers struct{ atomic.Pointer[lsp.Manager] }

// maxDiagnosedFile is the largest file whose text is sent to a language
// server after an edit (bytes); a larger one is not diagnosed.
const maxDiagnosedFile = 4 << 20

// LSPServers are the language servers of the enabled, trusted plugins
// for a session in workDir, and the configs that cannot be used.
func LSPServers(baseDir, workDir string, trustProject bool) ([]lsp.Server, []error) {
	cfg, _ := config.Load(filepath.Join(baseDir, "config"))
	var disabled []string
	if cfg != nil {
		disabled = cfg.List("disabled_plugins")
	}
	plugins, _ := plugin.Discover(plugin.DiscoverOptions{
		BaseDir: baseDir, ProjectDir: workDir, TrustProject: trustProject, Disabled: disabled, Verify: verifyMode(cfg),
	})
	return lspOf(baseDir, plugins)
}

// lspOf is LSPServers of plugins already discovered.
func lspOf(baseDir string, plugins []*plugin.Plugin) ([]lsp.Server, []error) {
	var servers []lsp.Server
	var errs []error
	for _, p := range plugins {
		if p.Err != nil || p.Disabled || p.Untrusted {
			continue
		}
		list, bad := pluginLSP(baseDir, p)
		servers = append(servers, list...)
		errs = append(errs, bad...)
	}
	return servers, errs
}

// pluginLSP reads p's language servers (baseDir gives their data
// directory) and the entries that cannot be used.
func pluginLSP(baseDir string, p *plugin.Plugin) (servers []lsp.Server, errs []error) {
	sources, _ := p.LSPSources() // bad paths are said by the plugin's status
	for _, s := range sources {
		data := s.Data
		if data == nil {
			var err error
			if data, err = safefile.ReadAll(s.File, plugin.MaxManifestSize); err != nil {
				if !errors.Is(err, fs.ErrNotExist) {
					errs = append(errs, fmt.Errorf("plugin %s: %v", p.ID, err))
				}
				continue
			}
		}
		list, bad := lsp.Parse(data, s.File)
		errs = append(errs, bad...)
		for _, sv := range list {
			sv.PluginID, sv.PluginDir = p.ID, p.Dir
			sv.PluginData = filepath.Join(baseDir, "plugin-data", p.ID)
			if p.Manifest != nil {
				sv.Sandbox = declared(p.Manifest.Sandbox)
			}
			servers = append(servers, sv)
		}
	}
	return servers, errs
}

// CheckLSP is `synaps plugins validate`'s look at p's language servers:
// each entry that cannot be used.
func CheckLSP(p *plugin.Plugin) []error {
	_, errs := pluginLSP("", p)
	return errs
}

// openLSP prepares the plugins' language servers (none starts here);
// configs that cannot be used are notes.
func (a *App) openLSP() {
	if a.opts.NoExtensions {
		return
	}
	servers, errs := lspOf(a.BaseDir, a.discover())
	for _, err := range errs {
		a.Notes = append(a.Notes, "lsp: "+err.Error())
	}
	if len(servers) == 0 {
		a.lsp.Store(nil)
		return
	}
	for _, sv := range servers {
		_ = os.MkdirAll(sv.PluginData, 0o700)
	}
	a.lsp.Store(lsp.NewManager(servers, lsp.Options{
		WorkDir: a.WorkDir, Getenv: a.opts.Getenv, Version: a.opts.Version,
		Policy: lspPolicy(a.sandbox, a.BaseDir, a.WorkDir, a.opts.Getenv),
	}))
}

// reloadLSP reads the plugins' language servers again (a plugin enabled,
// disabled or reloaded), ending the servers of the old list.
func (a *App) reloadLSP() {
	old := a.lsp.Load()
	notes := len(a.Notes)
	a.openLSP()
	// A config that cannot be used is said now, not left in the notes
	// of a start that is over.
	for _, n := range a.Notes[notes:] {
		a.notice(n)
	}
	a.Notes = a.Notes[:notes]
	if old != nil {
		old.Close() // each within its shutdownTimeout; they end in parallel
	}
}

// closeLSP ends the running language servers.
func (a *App) closeLSP() {
	if m := a.lsp.Swap(nil); m != nil {
		m.Close()
	}
}

// lspPolicy is the sandbox policy of a plugin's language server: its
// plugin's, as for the plugin's MCP servers (nil with sandbox.plugins
// off).
func lspPolicy(c sandbox.Config, baseDir, workDir string, getenv func(string) string) func(lsp.Server) *sandbox.Policy {
	return func(sv lsp.Server) *sandbox.Policy {
		if !c.Plugins {
			return nil
		}
		p := sandbox.ForPlugin(c, baseDir, workDir, sv.PluginID, sv.PluginDir, sv.Sandbox, getenv)
		p.Name = fmt.Sprintf("language server %s of plugin %s", sv.Name, sv.PluginID)
		return &p
	}
}

// withDiagnostics wraps the edit and write tools: after a change to a
// file a language server serves, its new errors are added to the result.
func (a *App) withDiagnostics(t tool.Tool, workDir string) tool.Tool {
	switch t.Spec().RuntimeName {
	case "write", "edit":
		return &diagnosingTool{Tool: t, a: a, workDir: workDir}
	}
	return t
}

type diagnosingTool struct {
	tool.Tool
	a       *App
	workDir string
}

func (d *diagnosingTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	m := d.a.lsp.Load()
	path := toolPath(input, d.workDir)
	if m == nil || path == "" || !m.Serves(path) {
		return d.Tool.Run(ctx, input)
	}
	res, err := d.Tool.Run(ctx, input)
	if err != nil || res.IsError {
		return res, err
	}
	text, ok := d.read(ctx, path)
	if !ok {
		return res, nil
	}
	rep := m.Diagnose(ctx, path, res.Before, text)
	if rep == nil {
		return res, nil
	}
	if rep.Err != nil {
		// For the user: the model needs only the errors.
		d.a.notice(rep.Err.Error())
	}
	if t := rep.Text(); t != "" {
		res.Output = strings.TrimRight(res.Output, "\n") + "\n\n" + t
	}
	return res, nil
}

// Preview is the wrapped tool's (the question before an edit shows it).
func (d *diagnosingTool) Preview(ctx context.Context, input json.RawMessage) *tool.Diff {
	if pv, ok := d.Tool.(tool.Previewer); ok {
		return pv.Preview(ctx, input)
	}
	return nil
}

// read is the file's text after the tool ran: the editor's when the
// session works through one (ACP), else the disk's; not ok for a file
// too large or unreadable.
func (d *diagnosingTool) read(ctx context.Context, path string) (string, bool) {
	if f := d.a.opts.Files; f != nil {
		t, err := f.ReadText(ctx, path)
		return t, err == nil && len(t) <= maxDiagnosedFile
	}
	b, err := safefile.ReadAll(path, maxDiagnosedFile)
	return string(b), err == nil
}

// toolPath is the absolute path an edit or write call names ("" when
// it names none).
func toolPath(input json.RawMessage, workDir string) string {
	var in struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(input, &in) != nil || in.Path == "" {
		return ""
	}
	p := in.Path
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		p = filepath.Join(home, p[1:])
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(workDir, p)
	}
	return filepath.Clean(p)
}

// LSPStatuses describes the session's language servers (nil: none).
func (a *App) LSPStatuses() []lsp.Status {
	return a.lsp.Load().Statuses()
}

// FormatLSP is the language servers' part of an extensions listing:
// each server, its plugin, the extensions it serves and its state; ""
// when there are none.
func FormatLSP(sts []lsp.Status, errs []error) string {
	if len(sts) == 0 && len(errs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nLanguage servers (started at the first edit of their files):\n")
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "SERVER\tPLUGIN\tFILES\tSTATUS")
	for _, st := range sts {
		state := st.State
		if st.ShadowedBy != "" {
			state = "unused: " + st.ShadowedBy + " serves its files"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", st.Name, dash(st.PluginID), strings.Join(st.Extensions, ","), state)
	}
	w.Flush()
	for _, st := range sts {
		if st.Err != "" {
			fmt.Fprintf(&b, "%s: %s\n", st.Name, firstLine(st.Err))
		}
	}
	for _, err := range errs {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	return b.String()
}

// ListLSP is the language servers' part of `synaps extensions list`:
// the configured servers, none of them started.
func ListLSP(baseDir, workDir string, trustProject bool) string {
	servers, errs := LSPServers(baseDir, workDir, trustProject)
	return FormatLSP(lsp.NewManager(servers, lsp.Options{}).Statuses(), errs)
}

// lspServerLines names each language server p configures with what it
// runs ("python: pyright-langserver --stdio"), for Capabilities: an
// update that adds one shows it. Entries that cannot be used are left
// out (the session says them).
func lspServerLines(p *plugin.Plugin) []string {
	servers, _ := pluginLSP("", p)
	var out []string
	for _, sv := range servers {
		out = append(out, sv.Name+": "+strings.Join(append([]string{sv.Command}, sv.Args...), " "))
	}
	return out
}
