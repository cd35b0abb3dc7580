package plugin

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// parseMeta reads the top-level descriptive fields.
func (p *manifestParser) parseMeta(m *Manifest, top *jsonObject) {
	p.warnDuplicateKeys("", top)
	if v, ok := top.get("name"); !ok {
		p.fail("name", `missing required field "name"`,
			`Add "name": "my-plugin" (no ':', '/' or spaces; it is shown in /extensions list)`)
	} else if s, ok := p.str("name", v, `Write the name as a string, e.g. "name": "my-plugin"`); ok {
		m.Name = s
		p.checkName(s)
	}
	m.Version, _ = p.optStr(top, "version", `Write the version as a string, e.g. "version": "0.1.0"`)
	m.Description, _ = p.optStr(top, "description", `Write the description as a string`)
	m.License, _ = p.optStr(top, "license", `Write the license as an SPDX string, e.g. "license": "MIT"`)
	if v, ok := top.get("author"); ok {
		m.Author = p.author(v)
	}
	if v, ok := top.get("repository"); ok {
		m.Repository = p.repository(v)
	}
}

func (p *manifestParser) checkName(s string) {
	const fix = "Rename it without ':', '/', '\\' or whitespace, e.g. %q: runtime tool ids are \"<plugin>:<tool>\""
	switch {
	case s == "":
		p.fail("name", `"name" is empty`, `Set "name" to a non-empty identifier such as "my-plugin"`)
	case strings.ContainsAny(s, ":/"):
		bad := ":"
		if !strings.Contains(s, ":") {
			bad = "/"
		}
		p.fail("name", fmt.Sprintf("name %q must not contain '%s'", s, bad), fmt.Sprintf(fix, sanitizeName(s)))
	case strings.IndexFunc(s, unicode.IsSpace) >= 0:
		p.fail("name", fmt.Sprintf("name %q must not contain whitespace", s), fmt.Sprintf(fix, sanitizeName(s)))
	case strings.IndexFunc(s, unicode.IsControl) >= 0 || strings.Contains(s, `\`):
		p.fail("name", fmt.Sprintf("name %q must not contain control characters or '\\'", s), fmt.Sprintf(fix, sanitizeName(s)))
	}
}

// sanitizeName suggests a valid plugin name for a bad one.
func sanitizeName(s string) string {
	out := strings.Map(func(r rune) rune {
		if r == ':' || r == '/' || r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r) {
			return '-'
		}
		return r
	}, s)
	if strings.Trim(out, "-") == "" {
		return "my-plugin"
	}
	return out
}

func (p *manifestParser) author(v json.RawMessage) string {
	const fix = `Write "author" as a string ("Name <email>") or an object {"name": ..., "email": ..., "url": ...}`
	switch v[0] {
	case '"':
		s, _ := p.str("author", v, fix)
		return s
	case '{':
		obj, _ := p.object("author", v, fix)
		name, _ := p.optStrAt(obj, "author", "name", fix)
		email, _ := p.optStrAt(obj, "author", "email", fix)
		url, _ := p.optStrAt(obj, "author", "url", fix)
		var parts []string
		if name != "" {
			parts = append(parts, name)
		}
		if email != "" {
			parts = append(parts, "<"+email+">")
		}
		if url != "" {
			parts = append(parts, "("+url+")")
		}
		return strings.Join(parts, " ")
	}
	p.fail("author", fmt.Sprintf(`"author" must be a string or an object, got %s`, kindOf(v)), fix)
	return ""
}

func (p *manifestParser) repository(v json.RawMessage) string {
	const fix = `Write "repository" as a URL string, or an object {"type": "git", "url": ...}`
	if v[0] == '{' {
		obj, _ := p.object("repository", v, fix)
		s, _ := p.optStrAt(obj, "repository", "url", fix)
		return s
	}
	if v[0] != '"' {
		p.fail("repository", fmt.Sprintf(`"repository" must be a string or an object, got %s`, kindOf(v)), fix)
		return ""
	}
	s, _ := p.str("repository", v, fix)
	return s
}
