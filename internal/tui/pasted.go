package tui

import (
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/app"
)

// pictureExts are the extensions a pasted picture's path ends with.
var pictureExts = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true}

// pastedPictures finds the pictures' paths pasted into text, as a
// terminal pastes a file dragged into it: absolute, ~/ or ./, bare,
// quoted ('…' or "…") or with backslash escapes ("my\ shot.png"), each
// a word of its own ending in a picture's extension. The paths come
// back unquoted, in order.
func pastedPictures(text string) []string {
	var out []string
	for rest := text; rest != ""; {
		rest = strings.TrimLeft(rest, " \t\n")
		var w string
		w, rest = app.PastedWord(rest)
		if (strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~/") || strings.HasPrefix(w, "./")) &&
			pictureExts[strings.ToLower(filepath.Ext(w))] {
			out = append(out, w)
		}
	}
	return out
}
