package plugin

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
)

func (p *manifestParser) parseLaunch(e *ExtensionManifest, obj *jsonObject) {
	epRaw, hasEP := obj.get("entry_point")
	cmdRaw, hasCmd := obj.get("command")
	argsRaw, hasArgs := obj.get("args")
	switch {
	case hasEP && hasCmd:
		p.fail("extension.entry_point", `both "entry_point" and "command" are set`,
			`Keep exactly one: "entry_point": "python3 main.py" (one shell-style line) or "command": "python3" with "args": ["main.py"]`)
	case !hasEP && !hasCmd:
		p.fail("extension.entry_point", `missing how to start the extension: neither "entry_point" nor "command" is set`,
			`Add "entry_point": "python3 main.py", or "command": "python3" with "args": ["main.py"]; a plugin without a process has no "extension" object`)
	}
	if hasEP {
		const fix = `Write one command line run in the plugin root, e.g. "entry_point": "python3 main.py"`
		if s, ok := p.str("extension.entry_point", epRaw, fix); ok {
			e.EntryPoint = s
			if strings.TrimSpace(s) == "" {
				p.fail("extension.entry_point", `"entry_point" is empty`, fix)
			} else if _, err := parseEntryPoint(s); err != nil {
				p.fail("extension.entry_point", fmt.Sprintf("cannot parse entry point %q: %v", s, err),
					`Close every quote (or escape it with a backslash); entry_point follows shell quoting rules, e.g. "python3 'my script.py'"`)
			}
		}
	}
	if hasCmd {
		const fix = `Write the executable as a string, e.g. "command": "python3", and put its arguments in "args"`
		if s, ok := p.str("extension.command", cmdRaw, fix); ok {
			e.Command = s
			switch {
			case strings.TrimSpace(s) == "":
				p.fail("extension.command", `"command" is empty`, fix)
			case strings.ContainsAny(s, " \t"):
				p.warn("extension.command", fmt.Sprintf(`%q is run as one executable name and is not split on spaces; put arguments in "args" (or use "entry_point" for a command line)`, s))
			}
		}
	}
	if hasArgs {
		if !hasCmd {
			p.fail("extension.args", `"args" is only used with "command"`,
				`Put the arguments into "entry_point" (e.g. "python3 main.py --flag") or replace "entry_point" with "command" + "args"`)
		}
		e.Args = p.stringArray("extension.args", argsRaw, `Write "args" as an array of strings, e.g. ["main.py", "--verbose"]`)
	}
}

func (p *manifestParser) parseProtocol(e *ExtensionManifest, obj *jsonObject) {
	seedRaw, hasSeed := obj.get("extension_protocol_version")
	cliRaw, hasCLI := obj.get("protocol_version")
	seed, seedOK := 0, false
	cli, cliOK := 0, false
	if hasSeed {
		seed, seedOK = p.version("extension.extension_protocol_version", "extension_protocol_version", seedRaw)
	}
	if hasCLI {
		cli, cliOK = p.version("extension.protocol_version", "protocol_version", cliRaw)
	}
	switch {
	case seedOK && cliOK && seed != cli:
		p.fail("extension.protocol_version",
			fmt.Sprintf(`"protocol_version" (%d) disagrees with "extension_protocol_version" (%d)`, cli, seed),
			`Keep one of the two keys; this synaps speaks extension protocols 1 and 2`)
		e.ProtocolVersion = cli
	case seedOK:
		e.ProtocolVersion = seed
	case cliOK:
		e.ProtocolVersion = cli
	}
	// Neither key: protocol 1, the SynapsCLI default. Not worth a warning
	// on every load; `synaps extensions test` points it out to authors.
}

// version reads a protocol version number; it reports (and returns ok=false
// for) anything but an integer, and reports a version other than 1.
func (p *manifestParser) version(field, key string, v json.RawMessage) (int, bool) {
	fix := fmt.Sprintf(`Set %q: 1 (or 2, for the on_usage hook); this synaps speaks extension protocols 1 and 2`, key)
	if kindOf(v) != "a number" {
		p.fail(field, fmt.Sprintf("the protocol version must be a number, got %s", kindOf(v)), fix)
		return 0, false
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		p.fail(field, fmt.Sprintf("protocol version %s is not an integer", v), fix)
		return 0, false
	}
	n := int(f)
	if !slices.Contains(contract.ProtocolVersions, n) {
		p.fail(field, fmt.Sprintf("extension protocol version %d is not supported: this synaps speaks extension protocols 1 and 2", n),
			fmt.Sprintf(`Set %q: 1 (or 2), or install a synaps that speaks protocol %d`, key, n))
	}
	return n, true
}

func (p *manifestParser) envNames(v json.RawMessage) []string {
	const fix = `Write "env" as an array of environment variable names, e.g. ["GITHUB_TOKEN", "HTTPS_PROXY"]`
	items, ok := p.array("extension.env", v, fix)
	if !ok {
		return nil
	}
	var names []string
	for i, it := range items {
		field := fmt.Sprintf("extension.env[%d]", i)
		s, ok := p.str(field, it, fix)
		if !ok {
			continue
		}
		if !envNameRE().MatchString(s) {
			p.fail(field, fmt.Sprintf("%q is not a valid environment variable name", s),
				`Use letters, digits and '_', not starting with a digit; list names only, values come from the user's environment`)
			continue
		}
		if slices.Contains(names, s) {
			p.warn(field, fmt.Sprintf("%q is listed more than once", s))
			continue
		}
		names = append(names, s)
	}
	return names
}

// parseRuntime reads extension.runtime; "process" is the only one.
func (p *manifestParser) parseRuntime(e *ExtensionManifest, obj *jsonObject) {
	if v, ok := obj.get("runtime"); ok {
		const fix = `Set "runtime": "process" or remove the key; this synaps runs extensions as child processes only`
		if s, ok := p.str("extension.runtime", v, fix); ok && s != RuntimeProcess {
			p.fail("extension.runtime", fmt.Sprintf("runtime %q is not supported", s), fix)
			e.Runtime = s
		}
	}
}

// parseEnv reads extension.env, the variables passed through to the child.
func (p *manifestParser) parseEnv(e *ExtensionManifest, obj *jsonObject) {
	if v, ok := obj.get("env"); ok {
		e.Env = p.envNames(v)
	}
}

// parseFailurePolicy reads extension.failure_policy.
func (p *manifestParser) parseFailurePolicy(e *ExtensionManifest, obj *jsonObject) {
	if v, ok := obj.get("failure_policy"); ok {
		const fix = `Set "failure_policy" to "open" (a faulting hook lets the call continue; the default) or "closed" (a faulting guard blocks the call)`
		if s, ok := p.str("extension.failure_policy", v, fix); ok {
			if s != FailurePolicyOpen && s != FailurePolicyClosed {
				p.fail("extension.failure_policy", fmt.Sprintf("unknown failure policy %q", s), fix)
			}
			e.FailurePolicy = s
		}
	}
}
