package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/synaps-cli/synaps/internal/extension"
)

// extensionsListing is /extensions list: the plugins, and after them the
// Claude Code hooks that run without a plugin of their own (the user's
// and the project's settings files), so the list never says "no plugins
// installed" while hooks run.
func (a *App) extensionsListing(ctx context.Context) string {
	sts := CheckPins(a.BaseDir, a.Statuses())
	other := a.claudeHookFiles(ctx, sts)
	if len(sts) == 0 && other != "" {
		return "no synaps plugins installed (plugins go in " + a.BaseDir + "/plugins); hooks that run:\n" + strings.TrimPrefix(other, "\n")
	}
	return FormatStatuses(sts, true) + other + FormatLSP(a.LSPStatuses(), nil)
}

// claudeHookFiles is a table of the Claude hook files whose source is no
// listed plugin: each file, whose it is, its hooks by status and their
// Claude events. Empty when there are none.
func (a *App) claudeHookFiles(ctx context.Context, sts []extension.Status) string {
	if a.claude == nil {
		return ""
	}
	list, err := a.ListHooks(ctx)
	if err != nil {
		return "Claude hooks: cannot list them: " + err.Error() + "\n"
	}
	type file struct {
		source, path string
		status       map[string]int
		events       []string
	}
	var files []*file
	for _, h := range list.Hooks {
		if h.Kind != "claude" || slices.ContainsFunc(sts, func(s extension.Status) bool { return s.ID == h.Source }) {
			continue
		}
		i := slices.IndexFunc(files, func(f *file) bool { return f.source == h.Source && f.path == h.File })
		if i < 0 {
			files = append(files, &file{source: h.Source, path: h.File, status: map[string]int{}})
			i = len(files) - 1
		}
		f := files[i]
		f.status[h.Status]++
		ev := cmpOr(h.ClaudeEvent, h.Event)
		if !slices.Contains(f.events, ev) {
			f.events = append(f.events, ev)
		}
	}
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nClaude Code hooks from settings files (/hooks lists each one):\n")
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "SOURCE\tHOOKS\tEVENTS\tFILE")
	for _, f := range files {
		var parts []string
		for _, s := range []string{HookRunning, HookDisabled, HookSkipped, HookFailed} {
			if n := f.status[s]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, s))
			}
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", f.source, strings.Join(parts, ", "), strings.Join(f.events, ","), f.path)
	}
	w.Flush()
	return b.String()
}
