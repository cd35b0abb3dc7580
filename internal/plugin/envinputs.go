package plugin

import "os"

// EnvInput is one variable of the user's environment that a plugin's
// extension receives beyond the scrubbed base set. `synaps extensions
// validate` lists them, so a user sees which secrets a plugin will get
// before installing it.
type EnvInput struct {
	Name string `json:"name"`
	// Via says how it arrives: "extension.env" (in the process
	// environment) or "extension.config.<key>.secret_env" (as that key's
	// value in initialize params.config).
	Via string `json:"via"`
	// Set: the variable is set (non-empty) where validate ran. Its value
	// is never printed.
	Set bool `json:"set"`
	// Credential: the name looks like a secret, by the rule the caller
	// passes (the CLI passes the built-in tools' rule, so "secret" means
	// the same everywhere); a secret_env is always one.
	Credential bool `json:"credential"`
}

// EnvInputs lists what p's extension reads from the environment, in
// manifest order: extension.env names, then config secret_env names.
// getenv nil means os.Getenv; looksSecret classifies names.
func EnvInputs(p *Plugin, getenv func(string) string, looksSecret func(string) bool) []EnvInput {
	if p.Manifest == nil || p.Manifest.Extension == nil {
		return nil
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	m := p.Manifest.Extension
	var out []EnvInput
	for _, name := range m.Env {
		out = append(out, EnvInput{Name: name, Via: "extension.env", Set: getenv(name) != "", Credential: looksSecret(name)})
	}
	for _, c := range m.Config {
		if c.SecretEnv != "" {
			out = append(out, EnvInput{Name: c.SecretEnv, Via: "extension.config." + c.Key + ".secret_env", Set: getenv(c.SecretEnv) != "", Credential: true})
		}
	}
	return out
}
