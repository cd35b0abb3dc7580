package plugin

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Three more parts of Claude Code's plugin.json, read in both dialects:
//
//   - "userConfig": options the user sets for the plugin (an API
//     endpoint, a token), typed; "sensitive" ones are kept out of the
//     config file (see internal/app/userconfig.go);
//   - "outputStyles": files or directories of output styles (Markdown
//     with frontmatter) besides output-styles/;
//   - "dependencies": other plugins this one needs, each a name
//     ("name" or "name@marketplace") or {"name", "version", "marketplace"}
//     with a semver range.
//
// A wrong shape is an error naming the field: a plugin whose options
// cannot be read would run without the values it needs.

// UserConfigOption is one entry of "userConfig".
type UserConfigOption struct {
	Key         string
	Type        string // string, number, boolean, directory, file
	Title       string
	Description string
	Required    bool
	Sensitive   bool
	Multiple    bool
	Default     any
	Min, Max    *float64
}

// Dependency is one entry of "dependencies".
type Dependency struct {
	Name        string
	Marketplace string // "" for the plugin's own marketplace
	Range       VersionRange
}

func (d Dependency) String() string {
	s := d.Name
	if d.Marketplace != "" {
		s += "@" + d.Marketplace
	}
	if r := d.Range.String(); r != "" {
		s += " " + r
	}
	return s
}

// userConfigTypes are the option types Claude Code knows.
var userConfigTypes = []string{"string", "number", "boolean", "directory", "file"}

// userConfigKey is what an option's key may be: it becomes part of
// ${user_config.KEY} and of CLAUDE_PLUGIN_OPTION_<KEY>.
var userConfigKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

func (p *manifestParser) parseClaudeExtras(m *Manifest, top *jsonObject) {
	if v, ok := top.get("userConfig"); ok {
		m.UserConfig = p.parseUserConfig(v)
	}
	if v, ok := top.get("outputStyles"); ok {
		var one string
		var many []string
		switch {
		case json.Unmarshal(v, &one) == nil:
			m.OutputStyles = []string{one}
		case json.Unmarshal(v, &many) == nil:
			m.OutputStyles = many
		default:
			p.warn("outputStyles", fmt.Sprintf("must be a path or an array of paths, got %s; ignored", kindOf(v)))
		}
	}
	if v, ok := top.get("dependencies"); ok {
		m.Dependencies = p.parseDependencies(v)
	}
}

func (p *manifestParser) parseUserConfig(v json.RawMessage) []UserConfigOption {
	obj, ok := decodeObject(v)
	if !ok {
		p.fail("userConfig", "must be an object of options, got "+kindOf(v), `Write {"api_url": {"type": "string", "title": "API URL", "description": "…"}}`)
		return nil
	}
	var out []UserConfigOption
	for _, key := range obj.keys {
		field := "userConfig." + key
		if !userConfigKey().MatchString(key) {
			p.fail(field, "the key must be letters, digits and _ (it becomes ${user_config."+key+"} and CLAUDE_PLUGIN_OPTION_"+strings.ToUpper(key)+")", "Rename it, e.g. "+strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
					return r
				}
				return '_'
			}, key))
			continue
		}
		var raw struct {
			Type        string          `json:"type"`
			Title       string          `json:"title"`
			Description string          `json:"description"`
			Required    bool            `json:"required"`
			Sensitive   bool            `json:"sensitive"`
			Multiple    bool            `json:"multiple"`
			Default     json.RawMessage `json:"default"`
			Min         *float64        `json:"min"`
			Max         *float64        `json:"max"`
		}
		if err := json.Unmarshal(obj.vals[key], &raw); err != nil {
			p.fail(field, "must be an object such as {\"type\": \"string\", \"title\": …}: "+err.Error(), "Fix the option's fields")
			continue
		}
		if raw.Type == "" {
			raw.Type = "string"
		}
		if !slices.Contains(userConfigTypes, raw.Type) {
			p.fail(field+".type", fmt.Sprintf("%q is not an option type", raw.Type), "Use one of "+strings.Join(userConfigTypes, ", "))
			continue
		}
		o := UserConfigOption{Key: key, Type: raw.Type, Title: raw.Title, Description: raw.Description,
			Required: raw.Required, Sensitive: raw.Sensitive, Multiple: raw.Multiple, Min: raw.Min, Max: raw.Max}
		if len(raw.Default) > 0 && string(raw.Default) != "null" {
			var d any
			json.Unmarshal(raw.Default, &d)
			o.Default = d
		}
		out = append(out, o)
	}
	return out
}

func (p *manifestParser) parseDependencies(v json.RawMessage) []Dependency {
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		p.fail("dependencies", "must be an array, got "+kindOf(v), `Write ["other-plugin", {"name": "tools", "version": "^2.0"}]`)
		return nil
	}
	var out []Dependency
	for i, it := range items {
		field := fmt.Sprintf("dependencies[%d]", i)
		var d Dependency
		var s string
		var obj struct {
			Name        string `json:"name"`
			Version     string `json:"version"`
			Marketplace string `json:"marketplace"`
		}
		switch {
		case json.Unmarshal(it, &s) == nil:
			d.Name, d.Marketplace, _ = strings.Cut(s, "@")
		case json.Unmarshal(it, &obj) == nil:
			d.Name, d.Marketplace = obj.Name, obj.Marketplace
			if n, mk, ok := strings.Cut(obj.Name, "@"); ok && d.Marketplace == "" {
				d.Name, d.Marketplace = n, mk
			}
			r, err := ParseVersionRange(obj.Version)
			if err != nil {
				p.fail(field+".version", err.Error(), "Write a semver range such as ^2.0, ~2.1.0 or >=1.2 <2")
				continue
			}
			d.Range = r
		default:
			p.fail(field, "must be a plugin name or {\"name\", \"version\"}, got "+kindOf(it), `Write "other-plugin" or {"name": "other-plugin", "version": "^2.0"}`)
			continue
		}
		if err := CheckID(d.Name); err != nil {
			p.fail(field, fmt.Sprintf("%q is not a plugin name: %v", d.Name, err), "Name the plugin as it is installed")
			continue
		}
		out = append(out, d)
	}
	return out
}

// OutputStylePaths are the files and directories p's output styles come
// from: output-styles/ and the manifest's "outputStyles".
func (p *Plugin) OutputStylePaths() (paths, warnings []string) {
	var extra []string
	if p.Manifest != nil {
		extra = p.Manifest.OutputStyles
	}
	return p.componentPaths("output-styles", "outputStyles", extra)
}
