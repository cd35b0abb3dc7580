package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/contract"
)

// claudeTable reads the rows of docs/claude.md's table of Claude Code's
// events and handler types: name → its "synaps" column.
func claudeTable(t *testing.T) (events, types map[string]string) {
	t.Helper()
	data, err := os.ReadFile("../../docs/claude.md")
	if err != nil {
		t.Fatal(err)
	}
	events, types = map[string]string{}, map[string]string{}
	var into map[string]string
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "| Claude Code event | synaps |"):
			into = events
			continue
		case strings.HasPrefix(line, "| handler type | synaps |"):
			into = types
			continue
		case !strings.HasPrefix(line, "|"):
			into = nil
			continue
		}
		if into == nil || strings.HasPrefix(line, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 2 {
			t.Fatalf("docs/claude.md: row %q has no synaps column", line)
		}
		name := strings.Trim(strings.TrimSpace(cells[0]), "`")
		into[name] = strings.TrimSpace(cells[1])
	}
	return events, types
}

// The table in docs/claude.md lists every event of the catalog, and says
// "supported" for those synaps fires (naming their synaps hook) and
// "not" (or "not yet") with the reason for the others; the handler types
// likewise.
func TestDocsTableMatchesCatalog(t *testing.T) {
	events, types := claudeTable(t)
	want := map[string]string{}
	for _, e := range Catalog {
		if e.Hook != "" {
			want[e.Name] = "supported: `" + e.Hook + "`"
		} else if strings.HasPrefix(e.Why, "not yet") {
			want[e.Name] = e.Why
		} else {
			want[e.Name] = "not: " + e.Why
		}
	}
	got := map[string]string{}
	for name, col := range events {
		if strings.HasPrefix(col, "supported") {
			hook, _, _ := strings.Cut(strings.TrimPrefix(col, "supported: "), ",")
			hook, _, _ = strings.Cut(hook, " ")
			got[name] = "supported: " + hook
		} else {
			got[name] = col
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("docs/claude.md's event table and Catalog differ (-code +docs):\n%s", diff)
	}
	wantTypes := map[string]string{}
	for _, ty := range HandlerTypes {
		wantTypes[ty] = "supported"
		if slices.Contains(otherTypes, ty) {
			wantTypes[ty] = "not"
		}
	}
	gotTypes := map[string]string{}
	for name, col := range types {
		v, _, _ := strings.Cut(col, ":")
		gotTypes[name] = v
	}
	if diff := cmp.Diff(wantTypes, gotTypes); diff != "" {
		t.Errorf("docs/claude.md's handler type table and HandlerTypes differ (-code +docs):\n%s", diff)
	}
}

// Every catalog entry names a real synaps hook or says why it has none,
// and the Claude link subscribes to that hook for a file with the event.
func TestCatalog(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range Catalog {
		if seen[e.Name] {
			t.Errorf("%s twice in Catalog", e.Name)
		}
		seen[e.Name] = true
		if e.Hook == "" {
			if e.Why == "" {
				t.Errorf("%s: not fired and no reason why", e.Name)
			}
			continue
		}
		if _, ok := contract.LookupHook(e.Hook); !ok {
			t.Errorf("%s: hook %q is not in the contract", e.Name, e.Hook)
		}
		l := &Link{Hooks: Hooks{Events: map[string][]Group{e.Name: {{}}}}}
		subs := l.Subscriptions()
		if len(subs) != 1 || subs[0].Hook != e.Hook {
			t.Errorf("%s: the link subscribes to %v, want %s", e.Name, subs, e.Hook)
		}
	}
	for _, ty := range otherTypes {
		if !slices.Contains(HandlerTypes, ty) {
			t.Errorf("otherTypes has %q, which HandlerTypes lacks", ty)
		}
	}
}

// A hooks file with every Claude Code 2.1.332 event and handler type
// loads: no event or type is guessed to be a misspelling, and each
// event synaps does not fire is said once, with why.
func TestParseKnowsEveryEvent(t *testing.T) {
	events := map[string]any{}
	for _, e := range Catalog {
		var hs []map[string]any
		for _, ty := range HandlerTypes {
			hs = append(hs, map[string]any{"type": ty, "command": "true", "url": "http://127.0.0.1:1/", "prompt": "p", "server": "s", "tool": "t"})
		}
		events[e.Name] = []map[string]any{{"hooks": hs}}
	}
	data, _ := json.Marshal(map[string]any{"hooks": events})
	h, warnings, err := Parse("f.json", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warnings {
		if strings.Contains(w, "did you mean") {
			t.Errorf("a valid name is taken for a misspelling: %s", w)
		}
	}
	for _, e := range Catalog {
		n := 0
		for _, w := range warnings {
			if strings.Contains(w, fmt.Sprintf("hooks.%s:", e.Name)) {
				n++
			}
		}
		switch {
		case e.Hook == "" && n != 1:
			t.Errorf("%s: %d warnings about the event, want 1", e.Name, n)
		case e.Hook != "" && len(h.Events[e.Name]) != 1:
			t.Errorf("%s: fired, but its group was not loaded", e.Name)
		}
	}
}
