package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/sandbox"
)

// runUnder runs cmd (not started, its output set) under pol — nil:
// unconfined — and waits for it: a plugin's shell-shape slash commands,
// its keybinds' scripts and its setup script run confined as its other
// processes do. said are the sandbox's refusals, to show beside the
// output: the proxy's, and those of the files the output (errOut, read
// once the process has ended) names.
func runUnder(cmd *exec.Cmd, pol *sandbox.Policy, errOut func() string) (said []string, err error) {
	if pol == nil {
		return nil, cmd.Run()
	}
	var mu sync.Mutex
	var refused []string
	release, err := sandbox.Start(cmd, *pol, func(line string) {
		mu.Lock()
		refused = append(refused, line)
		mu.Unlock()
	})
	if err != nil {
		return nil, err
	}
	defer release()
	err = cmd.Wait()
	mu.Lock()
	defer mu.Unlock()
	return append(refused, pol.Blocked(cmd.Dir, errOut())...), err
}

// setupPolicy is the policy of the setup script of the plugin id
// installed in dir (sandbox.ForSetup), under the sandbox settings of
// baseDir's config for the project in the working directory; nil when
// sandbox.plugins = off.
func setupPolicy(baseDir, id, dir string, m *plugin.Manifest) *sandbox.Policy {
	cfg, _ := config.Load(filepath.Join(baseDir, "config"))
	wd, _ := os.Getwd()
	c := sandbox.ReadConfig(cfg, wd, sandbox.Home(os.Getenv), false)
	if !c.Plugins {
		return nil
	}
	p := sandbox.ForSetup(c, baseDir, wd, id, dir, declared(m.Sandbox), os.Getenv)
	return &p
}

// tailBuffer keeps the last tailMax bytes written to it: enough of a long
// setup's output to find the refusals its last lines name.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailMax = 64 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailMax {
		t.buf = append(t.buf[:0:0], t.buf[len(t.buf)-tailMax:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
