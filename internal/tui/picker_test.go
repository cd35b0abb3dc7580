package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/session"
)

// TestPickerFilter: typing narrows the list by first prompt or id, case
// aside; unreadable sessions are never offered; enter on an empty list
// chooses nothing.
func TestPickerFilter(t *testing.T) {
	infos := []session.Info{
		{ID: "s3", Title: "Fix the Parser"},
		{ID: "s2", Error: "unreadable"},
		{ID: "s1", Title: "write docs"},
	}
	for _, tc := range []struct {
		typed      string
		want       []string
		wantChosen string
	}{
		{"", []string{"s3", "s1"}, "s3"},
		{"parser", []string{"s3"}, "s3"},
		{"S1", []string{"s1"}, "s1"},
		{"nothing", nil, ""},
	} {
		t.Run(tc.typed, func(t *testing.T) {
			p := newPicker(infos, 80)
			for _, r := range tc.typed {
				p.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			var got []string
			for _, s := range p.shown {
				got = append(got, s.ID)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("shown (-want +got):\n%s", diff)
			}
			p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
			if p.chosen != tc.wantChosen || !p.ended {
				t.Errorf("enter chose %q (ended %v), want %q", p.chosen, p.ended, tc.wantChosen)
			}
		})
	}
}

func TestAgo(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ stamp, want string }{
		{"2026-12-03T11:59:30Z", "just now"},
		{"2026-12-03T11:15:00Z", "45m ago"},
		{"2026-12-03T02:00:00Z", "10h ago"},
		{"2026-11-30T12:00:00Z", "3d ago"},
		{"not a time", "?"},
	} {
		if got := ago(now, tc.stamp); got != tc.want {
			t.Errorf("ago(%q) = %q, want %q", tc.stamp, got, tc.want)
		}
	}
}
