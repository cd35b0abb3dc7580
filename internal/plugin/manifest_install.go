package plugin

// Install-time parts of SynapsCLI's extension object: "setup", a script
// run once when the plugin is installed (to build or fetch its binary),
// and "prebuilt", per-platform archives of the binary with their SHA-256.
// They are read here; internal/app runs the script and checks the
// archives.

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Prebuilt is one platform's prebuilt binary: where it is and the
// SHA-256 it must have.
type Prebuilt struct {
	URL    string
	SHA256 string // 64 hex digits, lower case
}

// PrebuiltTriples are the platform names SynapsCLI's "prebuilt" map uses.
var PrebuiltTriples = []string{"linux-x86_64", "linux-arm64", "darwin-x86_64", "darwin-arm64", "windows-x86_64", "windows-arm64"}

// HostTriple is this machine's name in a "prebuilt" map.
func HostTriple() string {
	arch := runtime.GOARCH
	switch arch {
	case "amd64":
		arch = "x86_64"
	case "arm64":
		arch = "arm64"
	}
	return runtime.GOOS + "-" + arch
}

var sha256RE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-fA-F]{64}$`) })

// parseInstall reads extension.setup and extension.prebuilt.
func (p *manifestParser) parseInstall(e *ExtensionManifest, obj *jsonObject) {
	if s, ok := p.optStrAt(obj, "extension", "setup", `Write "setup" as the path of a script in the plugin, e.g. "setup": "scripts/setup.sh"`); ok {
		if why := CheckPluginPath(s); why != "" {
			p.fail("extension.setup", fmt.Sprintf("setup script %q %s", s, why),
				`Give a path inside the plugin directory, relative to it, e.g. "setup": "scripts/setup.sh"`)
		} else {
			e.Setup = s
		}
	}
	v, ok := obj.get("prebuilt")
	if !ok {
		return
	}
	const fix = `Write "prebuilt" as an object from platform to {"url": ..., "sha256": ...}, e.g. {"linux-x86_64": {"url": "https://…/x.tar.gz", "sha256": "<64 hex digits>"}}`
	m, ok := p.object("extension.prebuilt", v, fix)
	if !ok {
		return
	}
	e.Prebuilt = map[string]Prebuilt{}
	keys := slices.Clone(m.keys)
	sort.Strings(keys)
	for _, triple := range keys {
		field := "extension.prebuilt." + triple
		if !slices.Contains(PrebuiltTriples, triple) {
			p.warn(field, fmt.Sprintf("unknown platform %q is never used; platforms are %s", triple, strings.Join(PrebuiltTriples, ", ")))
		}
		raw, _ := m.get(triple)
		entry, ok := p.object(field, raw, fix)
		if !ok {
			continue
		}
		var pb Prebuilt
		if raw, ok := entry.get("url"); !ok {
			p.fail(field+".url", `missing required field "url"`, fix)
		} else if s, ok := p.str(field+".url", raw, fix); ok {
			pb.URL = s
		}
		if raw, ok := entry.get("sha256"); !ok {
			p.fail(field+".sha256", `missing required field "sha256"`, `Add the archive's SHA-256 (sha256sum prints it) as 64 hex digits`)
		} else if s, ok := p.str(field+".sha256", raw, fix); ok {
			if !sha256RE().MatchString(s) {
				p.fail(field+".sha256", fmt.Sprintf("%q is not a SHA-256: it must be exactly 64 hex digits", abbreviate(s)), `Write the digest sha256sum prints for the archive`)
			} else {
				pb.SHA256 = strings.ToLower(s)
			}
		}
		e.Prebuilt[triple] = pb
	}
}

// CheckPluginPath says why rel cannot name a file inside a plugin
// directory ("" when it can): it must be relative and must not climb out
// with "..".
func CheckPluginPath(rel string) string {
	switch {
	case strings.TrimSpace(rel) == "":
		return "is empty"
	case filepath.IsAbs(rel) || path.IsAbs(rel):
		return "is an absolute path"
	case slices.Contains(strings.Split(filepath.ToSlash(rel), "/"), ".."):
		return `climbs out of the plugin with ".."`
	}
	return ""
}
