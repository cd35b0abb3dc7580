package app

// Plugin sidecars (provides.sidecar): started on the first toggle,
// toggled by /<lifecycle word> (or /sidecar [ID]), their status and the
// text they produce shown as they come, stopped when the session ends.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/sidecar"
)

// sidecarDecl is a plugin's declared sidecar.
type sidecarDecl struct {
	p  *plugin.Plugin
	sc *plugin.Sidecar
}

// sidecars holds the session's sidecars: declared and running. One lock.
type sidecars struct {
	mu       sync.Mutex
	decls    []sidecarDecl // by importance, then plugin id
	running  map[string]*sidecar.Sidecar
	claimsBy map[string]string // lifecycle word → plugin id
}

// declareSidecar records p's sidecar; a lifecycle word that is a built-in
// command or another plugin's is refused with a note.
func (a *App) declareSidecar(p *plugin.Plugin) {
	sc := p.Manifest.Sidecar
	if sc == nil {
		return
	}
	s := &a.side
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.claimsBy == nil {
		s.claimsBy = map[string]string{}
	}
	if w := sc.Lifecycle; w != "" {
		builtin := slices.ContainsFunc(SlashCommands, func(c struct{ Name, Help string }) bool {
			return strings.Fields(c.Name)[0] == "/"+w
		}) || w == "sidecar" || w == "attach"
		switch other, taken := s.claimsBy[w]; {
		case builtin:
			a.Notes = append(a.Notes, fmt.Sprintf("plugin %s: the sidecar's lifecycle word %q is a synaps command; toggle it with /sidecar %s", p.ID, w, p.ID))
			c := *sc
			c.Lifecycle = ""
			sc = &c
		case taken:
			a.Notes = append(a.Notes, fmt.Sprintf("plugin %s: the sidecar's lifecycle word %q is plugin %s's already; toggle it with /sidecar %s", p.ID, w, other, p.ID))
			c := *sc
			c.Lifecycle = ""
			sc = &c
		default:
			s.claimsBy[w] = p.ID
		}
	}
	s.decls = append(s.decls, sidecarDecl{p, sc})
	sort.SliceStable(s.decls, func(i, j int) bool { return s.decls[i].sc.Importance > s.decls[j].sc.Importance })
}

// reset forgets the declarations (running sidecars stay until the end).
func (s *sidecars) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.decls, s.claimsBy = nil, nil
}

// find finds the declared sidecar of plugin id ("" = the first).
func (s *sidecars) find(id string) (sidecarDecl, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.decls {
		if id == "" || d.p.ID == id {
			return d, true
		}
	}
	return sidecarDecl{}, false
}

// claim reports the plugin whose sidecar the word toggles.
func (s *sidecars) claim(word string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.claimsBy[word]
	return id, ok
}

// slashSidecar is /sidecar [ID] [toggle|status] and /<word> [toggle|status].
func (a *App) slashSidecar(ctx context.Context, id, sub string) (SlashResult, error) {
	d, ok := a.side.find(id)
	if !ok {
		if id == "" {
			return SlashResult{}, fmt.Errorf("/sidecar: no plugin declares a sidecar (provides.sidecar)")
		}
		return SlashResult{}, fmt.Errorf("/sidecar: plugin %s has no sidecar", id)
	}
	name := d.sc.DisplayName
	if name == "" {
		name = d.p.ID
	}
	a.side.mu.Lock()
	sc := a.side.running[d.p.ID]
	a.side.mu.Unlock()
	switch sub {
	case "status":
		if sc == nil {
			return SlashResult{Output: fmt.Sprintf("%s (plugin %s): not started; /%s toggles it\n", name, d.p.ID, cmpOr(d.sc.Lifecycle, "sidecar "+d.p.ID))}, nil
		}
		return SlashResult{Output: fmt.Sprintf("%s (plugin %s): %s\n", name, d.p.ID, sc.Status())}, nil
	case "", "toggle":
	default:
		return SlashResult{}, fmt.Errorf("usage: /%s [toggle|status]", cmpOr(d.sc.Lifecycle, "sidecar "+d.p.ID))
	}
	if a.opts.NoExtensions {
		return SlashResult{}, fmt.Errorf("sidecars are disabled (--no-extensions)")
	}
	if sc == nil {
		var err error
		if sc, err = a.startSidecar(ctx, d, name); err != nil {
			return SlashResult{}, err
		}
	}
	trig, err := sc.Toggle()
	if err != nil {
		return SlashResult{}, fmt.Errorf("%s: %w", name, err)
	}
	state := "on"
	if trig == "release" {
		state = "off"
	}
	return SlashResult{Output: fmt.Sprintf("%s: %s, %s\n", name, state, sc.Status())}, nil
}

// startSidecar spawns d's sidecar with its args: the extension's answer
// to sidecar.spawn_args when the plugin has one, else none, plus
// --model-path when model.default_path names a file.
func (a *App) startSidecar(ctx context.Context, d sidecarDecl, name string) (*sidecar.Sidecar, error) {
	var args []string
	if a.Host != nil && d.p.Manifest.Extension != nil {
		got, err := a.Host.SidecarSpawnArgs(ctx, d.p.ID)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		args = got
	}
	if mp := d.sc.ModelPath; mp != "" && !slices.Contains(args, "--model-path") {
		if rest, ok := strings.CutPrefix(mp, "~/"); ok {
			mp = filepath.Join(a.opts.Getenv("HOME"), rest)
		}
		if fi, err := os.Stat(mp); err == nil && fi.Mode().IsRegular() {
			args = append(args, "--model-path", mp)
		}
	}
	cmd := d.sc.Command
	if !filepath.IsAbs(cmd) && strings.ContainsAny(cmd, `/\`) {
		cmd = filepath.Join(d.p.Dir, cmd)
	}
	env := append(append([]string(nil), a.env...), "SYNAPS_PLUGIN_ID="+d.p.ID, "SYNAPS_PLUGIN_ROOT="+d.p.Dir)
	sc, err := sidecar.Start(sidecar.Spec{Plugin: d.p.ID, Display: name, Command: cmd, Args: args, Dir: d.p.Dir, Env: env,
		Policy: a.pluginPolicy(d.p.ID, d.p.Dir, d.p.Manifest.Sandbox)}, a.sidecarEvent)
	if err != nil {
		return nil, err
	}
	a.side.mu.Lock()
	if a.side.running == nil {
		a.side.running = map[string]*sidecar.Sidecar{}
	}
	a.side.running[d.p.ID] = sc
	a.side.mu.Unlock()
	return sc, nil
}

// sidecarEvent shows what a sidecar said: its status, text to insert at
// the input (Stream "insert"), an error.
func (a *App) sidecarEvent(ev sidecar.Event) {
	if a.opts.OnEvent == nil {
		return
	}
	out := agent.Event{Type: agent.EventOutput, Stream: "system"}
	switch ev.Kind {
	case "status":
		out.Text = fmt.Sprintf("%s: %s", ev.Display, ev.State)
		if ev.Label != "" {
			out.Text += " (" + ev.Label + ")"
		}
	case "insert_text":
		out.Stream, out.Text = "insert", ev.Text
	case "error":
		out.Stream, out.Text = "error", ev.Display+": "+ev.Message
	case "exited":
		out.Text = ev.Display + ": " + ev.Message
	default:
		return
	}
	a.opts.OnEvent(out)
}

// stopSidecars stops every running sidecar.
func (a *App) stopSidecars() {
	a.side.mu.Lock()
	running := a.side.running
	a.side.running = nil
	a.side.mu.Unlock()
	var wg sync.WaitGroup
	for _, sc := range running {
		wg.Add(1)
		go func() { defer wg.Done(); sc.Stop() }()
	}
	wg.Wait()
}

// SidecarCommands are the sidecars' lifecycle words as slash commands,
// for completion.
func (a *App) SidecarCommands() []struct{ Name, Help string } {
	a.side.mu.Lock()
	defer a.side.mu.Unlock()
	var out []struct{ Name, Help string }
	for _, d := range a.side.decls {
		if w := d.sc.Lifecycle; w != "" {
			out = append(out, struct{ Name, Help string }{"/" + w, fmt.Sprintf("toggle %s (sidecar of plugin %s); /%s status shows it", cmpOr(d.sc.DisplayName, w), d.p.ID, w)})
		}
	}
	return out
}
