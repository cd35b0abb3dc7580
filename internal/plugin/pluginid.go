package plugin

import (
	"fmt"
	"strings"
	"unicode"
)

// CheckID says whether id can name a plugin on the command line. A plugin
// id is its manifest name, which is also the name of the directory
// `synaps extensions install` puts it in, so every command that
// takes one (info, logs, enable, disable, uninstall, /extensions enable)
// checks it here before building a path from it: "../../x" must never reach
// a file outside the base directory. Names Discover skips (a leading ".")
// and names that would corrupt the comma-separated disabled_plugins list
// are refused too.
func CheckID(id string) error {
	var why string
	switch {
	case id == "":
		why = "it is empty"
	case id == "." || id == "..":
		why = "it is a path, not a name"
	case strings.ContainsAny(id, `/\`):
		why = `it contains a path separator ("/" or "\")`
	case strings.HasPrefix(id, "."):
		why = `it begins with "." (such directories are skipped, never loaded)`
	case strings.Contains(id, ","):
		why = `it contains "," (disabled_plugins is a comma-separated list)`
	case strings.IndexFunc(id, unicode.IsControl) >= 0:
		why = "it contains a control character"
	case len(id) > 255:
		why = "it is longer than a directory name can be"
	default:
		return nil
	}
	return fmt.Errorf("%q is not a plugin id: %s; a plugin id is the name in its manifest, and `synaps extensions list` shows them", id, why)
}
