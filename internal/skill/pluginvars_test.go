package skill

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBodyPluginVars: a plugin's skill gets its directories in place of
// ${CLAUDE_PLUGIN_ROOT}/${CLAUDE_PLUGIN_DATA}; another skill keeps them.
func TestBodyPluginVars(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte("---\nname: x\ndescription: d\n---\n${CLAUDE_PLUGIN_ROOT}/s.sh ${CLAUDE_PLUGIN_DATA} ${SYNAPS_PLUGIN_ROOT} ${CLAUDE_SKILL_DIR}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		root, data string
		want       string
	}{
		{"plugin", "/p", "/d", "/p/s.sh /d /p " + dir},
		{"user", "", "", "${CLAUDE_PLUGIN_ROOT}/s.sh ${CLAUDE_PLUGIN_DATA} ${SYNAPS_PLUGIN_ROOT} " + dir},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Skill{Dir: dir, Path: path, PluginRoot: tc.root, PluginData: tc.data}.Body()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}
}
