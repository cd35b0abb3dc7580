package app

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// changedSettings sees a file that changed, appeared or went away, and
// nothing else; a held (blocked) change keeps the old contents for the
// session's hooks and is not asked about again.
func TestChangedSettings(t *testing.T) {
	dir := t.TempDir()
	user, project, local := filepath.Join(dir, "user.json"), filepath.Join(dir, "project.json"), filepath.Join(dir, "local.json")
	os.WriteFile(user, []byte(`{"a":1}`), 0o600)
	os.WriteFile(project, []byte(`{"b":1}`), 0o600)
	c := &claudeHooks{}
	for key, f := range map[string]string{"user": user, "project": project, "local": local} {
		c.readSettings(key, f, true)
	}
	if got := c.changedSettings(); len(got) != 0 {
		t.Fatalf("nothing changed, yet %d changes", len(got))
	}
	os.WriteFile(user, []byte(`{"a":2}`), 0o600)
	os.WriteFile(local, []byte(`{"c":1}`), 0o600)
	os.Remove(project)
	var got []string
	changes := c.changedSettings()
	for _, ch := range changes {
		got = append(got, ch.now.source+" "+filepath.Base(ch.file))
	}
	want := []string{"local_settings local.json", "project_settings project.json", "user_settings user.json"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("changes (-want +got):\n%s", diff)
	}
	for _, ch := range changes {
		c.settle(ch, ch.now.source == "user_settings") // the user file's change is blocked
	}
	if got := c.changedSettings(); len(got) != 0 {
		t.Fatalf("settled changes asked about again: %d", len(got))
	}
	if data, _ := c.readSettings("user", user, true); string(data) != `{"a":1}` {
		t.Errorf("a blocked change: the session reads %s, want the old contents", data)
	}
	if data, _ := c.readSettings("local", local, true); string(data) != `{"c":1}` {
		t.Errorf("a change let through: the session reads %s, want the new contents", data)
	}
}

// BenchmarkChangedSettingsNone is what each prompt costs when no settings
// file changed: three small files read and compared.
func BenchmarkChangedSettingsNone(b *testing.B) {
	dir := b.TempDir()
	c := &claudeHooks{}
	for _, key := range []string{"user", "project", "local"} {
		f := filepath.Join(dir, key+".json")
		os.WriteFile(f, []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./guard.sh"}]}]}}`), 0o600)
		c.readSettings(key, f, true)
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(c.changedSettings()) != 0 {
			b.Fatal("changed")
		}
	}
}
