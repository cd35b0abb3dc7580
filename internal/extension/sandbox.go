package extension

import (
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/sandbox"
)

// policy is the sandbox policy of p's extension process, nil when
// sandbox.plugins = off: the manifest's sandbox section, or the default
// policy (docs/sandbox.md).
func (env *hostEnv) policy(p *plugin.Plugin) *sandbox.Policy {
	c := sandbox.ReadConfig(env.config, env.projectDir, sandbox.Home(env.getenv), false)
	if !c.Plugins {
		return nil
	}
	var d *sandbox.Declared
	if s := p.Manifest.Sandbox; s != nil {
		d = &sandbox.Declared{Read: s.Read, Write: s.Write, Network: s.Network}
	}
	pol := sandbox.ForPlugin(c, env.baseDir, env.projectDir, p.ID, p.Dir, d, env.getenv)
	return &pol
}
