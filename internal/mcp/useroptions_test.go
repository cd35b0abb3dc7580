package mcp

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExpanderUserConfig: a plugin's options expand as
// ${user_config.KEY} and reach the server as CLAUDE_PLUGIN_OPTION_<KEY>;
// an option that is not set is an error naming the command that sets it,
// unless the reference has a default.
func TestExpanderUserConfig(t *testing.T) {
	m := &Manager{opts: Options{Getenv: func(string) string { return "" }}}
	sv := Server{Name: "s", Command: "srv", Args: []string{"--url", "${user_config.url}", "--mode", "${user_config.mode:-fast}"},
		Env: map[string]string{"TOKEN": "${user_config.token}", "CLAUDE_PLUGIN_OPTION_URL": "mine"}, PluginID: "kit",
		UserConfig: map[string]string{"url": "https://u.test", "token": "t0k"}}
	got, err := m.expander(sv).Expand(sv)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"--url", "https://u.test", "--mode", "fast"}, got.Args); d != "" {
		t.Errorf("args (-want +got):\n%s", d)
	}
	env := withOptions(got.Env, got.UserConfig)
	want := map[string]string{"TOKEN": "t0k", "CLAUDE_PLUGIN_OPTION_URL": "mine", "CLAUDE_PLUGIN_OPTION_TOKEN": "t0k"}
	if d := cmp.Diff(want, env); d != "" {
		t.Errorf("env (-want +got):\n%s", d)
	}

	sv.UserConfig = nil
	_, err = m.expander(sv).Expand(sv)
	if err == nil || !strings.Contains(err.Error(), "the plugin's option url is not set; set it with `synaps plugins config kit url=VALUE`") {
		t.Errorf("unset option: error %v", err)
	}
}
