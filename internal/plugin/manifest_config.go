package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ConfigTypes are the values "type" may take in a config entry.
// "bool" is SynapsCLI's spelling of "boolean".
var ConfigTypes = []string{"string", "bool", "number", "integer", "boolean"}

// HostContexts are the values "host_context" may take.
var HostContexts = []string{"project_root"}

var configEntryKeys = []string{"key", "description", "required", "default", "secret_env", "type", "host_context"}

// ConfigEnvWord is how a config key (or plugin id) appears in an
// environment variable name: upper case, every character outside [A-Z0-9]
// as '_'. Two keys with the same word are one key.
func ConfigEnvWord(s string) string {
	b := []byte(strings.ToUpper(s))
	for i, c := range b {
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

func (p *manifestParser) parseConfig(e *ExtensionManifest, obj *jsonObject) {
	v, ok := obj.get("config")
	if !ok {
		return
	}
	const fix = `Write "config" as an array of objects, e.g. [{"key": "allowed_dir", "description": "...", "default": "/tmp"}]`
	items, ok := p.array("extension.config", v, fix)
	if !ok {
		return
	}
	seen := map[string]int{} // ConfigEnvWord of the key -> index of first use
	for i, it := range items {
		base := fmt.Sprintf("extension.config[%d]", i)
		entry, ok := p.object(base, it, fix)
		if !ok {
			continue
		}
		e.Config = append(e.Config, p.configEntry(base, i, entry, seen))
	}
}

// defaultFits reports whether a default value matches a declared type.
func defaultFits(typ string, v json.RawMessage) bool {
	switch typ {
	case "string":
		return v[0] == '"'
	case "boolean", "bool":
		return string(v) == "true" || string(v) == "false"
	case "number":
		return kindOf(v) == "a number"
	case "integer":
		if kindOf(v) != "a number" {
			return false
		}
		f, err := strconv.ParseFloat(string(v), 64)
		return err == nil && f == math.Trunc(f)
	}
	return true
}

// configEntry reads one entry of extension.config at base (its index i).
// seen maps the ConfigEnvWord of the keys declared so far to their index:
// keys name environment variables, so they must differ there.
func (p *manifestParser) configEntry(base string, i int, entry *jsonObject, seen map[string]int) ConfigEntry {
	for _, k := range entry.keys {
		if !slices.Contains(configEntryKeys, k) {
			note := fmt.Sprintf("unknown key %q is ignored", k)
			if s := suggest(k, configEntryKeys); s != "" {
				note += fmt.Sprintf("; did you mean %q?", s)
			} else {
				note += "; known keys are " + strings.Join(configEntryKeys, ", ")
			}
			p.warn(base+"."+k, note)
		}
	}
	var c ConfigEntry
	keyOK := false
	if kv, ok := entry.get("key"); !ok {
		p.fail(base+".key", `missing required field "key"`, `Add "key": "my_setting" (letters, digits, '_' and '-')`)
	} else if s, ok := p.str(base+".key", kv, `Write the key as a string such as "allowed_dir"`); ok {
		c.Key = s
		if !configKeyRE().MatchString(s) {
			sug := strings.Trim(nonKeyCharsRE().ReplaceAllString(s, "_"), "_")
			if sug == "" || !configKeyRE().MatchString(sug) {
				sug = "my_setting"
			}
			p.fail(base+".key", fmt.Sprintf("config key %q is not valid", s),
				fmt.Sprintf(`Use letters, digits, '_' and '-', not starting with '-' (e.g. %q): the key becomes part of the environment variable SYNAPS_EXTENSION_<ID>__<KEY>`, sug))
		} else {
			keyOK = true
		}
	}
	if keyOK {
		up := ConfigEnvWord(c.Key)
		if j, dup := seen[up]; dup {
			p.fail(base+".key", fmt.Sprintf("config key %q is declared twice (first at extension.config[%d]; keys are compared ignoring case, '-' and '_' alike, because they name environment variables)", c.Key, j),
				"Remove one of the entries or rename it")
		} else {
			seen[up] = i
		}
	}
	c.Description, _ = p.optStrAt(entry, base, "description", `Write "description" as a string`)
	if rv, ok := entry.get("required"); ok {
		if string(rv) == "true" || string(rv) == "false" {
			c.Required = string(rv) == "true"
		} else {
			p.fail(base+".required", fmt.Sprintf(`"required" must be true or false, got %s`, kindOf(rv)),
				`Write "required": true or "required": false (without quotes)`)
		}
	}
	if tv, ok := entry.get("type"); ok {
		fix := `Set "type" to one of "` + strings.Join(ConfigTypes, `", "`) + `", or remove it`
		if s, ok := p.str(base+".type", tv, fix); ok {
			if !slices.Contains(ConfigTypes, s) {
				p.fail(base+".type", fmt.Sprintf("unknown config type %q", s), fix)
			} else {
				c.Type = s
			}
		}
	}
	if dv, ok := entry.get("default"); ok {
		var buf bytes.Buffer
		_ = json.Compact(&buf, dv) // dv is valid JSON: it came out of a decoded document
		c.Default = json.RawMessage(buf.Bytes())
		if c.Type != "" && !defaultFits(c.Type, dv) {
			p.fail(base+".default", fmt.Sprintf("default %s is not of type %q", abbreviate(string(c.Default)), c.Type),
				fmt.Sprintf(`Give a default of type %s, or change "type"`, c.Type))
		}
	}
	if sv, ok := entry.get("secret_env"); ok {
		const fix = `Name an environment variable: letters, digits and '_', not starting with a digit, e.g. "MY_PLUGIN_TOKEN"`
		if s, ok := p.str(base+".secret_env", sv, fix); ok {
			if !envNameRE().MatchString(s) {
				p.fail(base+".secret_env", fmt.Sprintf("%q is not a valid environment variable name", s), fix)
			}
			c.SecretEnv = s
		}
	}
	if hv, ok := entry.get("host_context"); ok {
		fix := `Set "host_context" to one of "` + strings.Join(HostContexts, `", "`) + `", or remove it`
		if s, ok := p.str(base+".host_context", hv, fix); ok {
			if !slices.Contains(HostContexts, s) {
				p.fail(base+".host_context", fmt.Sprintf("unknown host_context %q", s), fix)
			} else {
				c.HostContext = s
			}
		}
	}
	return c
}
