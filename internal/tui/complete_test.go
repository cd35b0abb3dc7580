package tui

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/app"
)

var testCommands = []struct{ Name, Help string }{
	{"/extensions list", "list"},
	{"/extensions reload", "reload"},
	{"/extensions enable ID", "enable"},
	{"/extensions disable ID", "disable"},
	{"/model [NAME]", "model"},
	{"/compact", "compact"},
	{"/clear", "clear"},
	{"/help", "help"},
	{"/quit", "quit"},
}

func TestSlashCandidates(t *testing.T) {
	got := slashCandidates(testCommands[2:5], []string{"guard"})
	want := []candidate{
		{Text: "/extensions enable ", Name: "/extensions enable ID", Help: "enable"},
		{Text: "/extensions enable guard", Name: "/extensions enable guard", Help: "enable", ID: true},
		{Text: "/extensions disable ", Name: "/extensions disable ID", Help: "disable"},
		{Text: "/extensions disable guard", Name: "/extensions disable guard", Help: "disable", ID: true},
		{Text: "/model ", Name: "/model [NAME]", Help: "model"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("slashCandidates (-want +got):\n%s", diff)
	}
}

func TestCompleteSlash(t *testing.T) {
	cands := slashCandidates(testCommands, []string{"guard", "greeter"})
	tests := []struct{ in, want string }{
		{"/", "/"}, // many commands, no common prefix beyond "/"
		{"/ex", "/extensions "},
		{"/extensions r", "/extensions reload"},
		{"/extensions e", "/extensions enable "},
		{"/extensions enable g", "/extensions enable g"}, // guard, greeter
		{"/extensions enable gu", "/extensions enable guard"},
		{"/co", "/compact"},
		{"/c", "/c"}, // compact, clear
		{"/mo", "/model "},
		{"/model claude", "/model claude"}, // an argument: nothing to complete
		{"/nope", "/nope"},
		{"hello", "hello"},
		{"/ex\nmore", "/ex\nmore"},
	}
	for _, tt := range tests {
		if got := completeSlash(tt.in, cands); got != tt.want {
			t.Errorf("completeSlash(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSlashMatches(t *testing.T) {
	cands := slashCandidates(testCommands, []string{"guard"})
	names := func(cs []candidate) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	tests := []struct {
		in   string
		want []string
	}{
		{"hello", nil},
		{"/c", []string{"/compact", "/clear"}},
		{"/ext", []string{"/extensions list", "/extensions reload", "/extensions enable ID", "/extensions disable ID"}},
		{"/extensions enable ", []string{"/extensions enable ID", "/extensions enable guard"}},
		{"/extensions enable gu", []string{"/extensions enable ID", "/extensions enable guard"}},
		{"/model gpt-5", []string{"/model [NAME]"}},
		{"/quit", []string{"/quit"}},
		{"/zzz", nil},
		{"/c\nx", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, names(slashMatches(tt.in, cands))); diff != "" {
			t.Errorf("slashMatches(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// Every command the app knows completes from its first letters.
func TestAppCommandsComplete(t *testing.T) {
	st := state{commands: []struct{ Name, Help string }{{"/commit-commands:commit [ARGS]", "Create a git commit"}}}
	cands := defaultCandidates(st)
	for _, c := range append(app.SlashCommands, st.commands...) {
		text := c.Name
		for _, cand := range cands {
			if cand.Name == c.Name {
				text = cand.Text
			}
		}
		if ms := slashMatches(text, cands); len(ms) == 0 {
			t.Errorf("%s is not offered for %q", c.Name, text)
		}
	}
}

func TestHistory(t *testing.T) {
	type step struct {
		op      string // add, prev, next
		arg     string // add: the entry; prev: the current input
		want    string
		wantOK  bool
		browses bool
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"empty", []step{
			{op: "prev", arg: "draft", want: "", wantOK: false},
			{op: "next", want: "", wantOK: false},
		}},
		{"browse and back to the draft", []step{
			{op: "add", arg: "one"},
			{op: "add", arg: "two"},
			{op: "prev", arg: "dra", want: "two", wantOK: true, browses: true},
			{op: "prev", arg: "two", want: "one", wantOK: true, browses: true},
			{op: "prev", arg: "one", want: "", wantOK: false, browses: true},
			{op: "next", want: "two", wantOK: true, browses: true},
			{op: "next", want: "dra", wantOK: true, browses: false},
			{op: "next", want: "", wantOK: false, browses: false},
		}},
		{"no repeats, add stops browsing", []step{
			{op: "add", arg: "same"},
			{op: "add", arg: "same"},
			{op: "prev", arg: "", want: "same", wantOK: true, browses: true},
			{op: "prev", arg: "same", want: "", wantOK: false, browses: true},
			{op: "add", arg: "other"},
			{op: "prev", arg: "", want: "other", wantOK: true, browses: true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h history
			for i, s := range tt.steps {
				var got string
				var ok bool
				switch s.op {
				case "add":
					h.add(s.arg)
					continue
				case "prev":
					got, ok = h.prev(s.arg)
				case "next":
					got, ok = h.next()
				}
				if got != s.want || ok != s.wantOK || h.browsing() != s.browses {
					t.Errorf("step %d %s: got %q, %v (browsing %v), want %q, %v (browsing %v)",
						i, s.op, got, ok, h.browsing(), s.want, s.wantOK, s.browses)
				}
			}
		})
	}
}
