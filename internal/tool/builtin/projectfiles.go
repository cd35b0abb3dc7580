package builtin

import (
	"context"
	"io/fs"
)

// ProjectFiles lists the paths under root as git sees them (the find
// tool's walk: .git and what .gitignore files ignore are left out),
// relative to root with "/" separators, directories ending in "/", in
// lexical order; at most limit of them, and only what the walk reaches
// before ctx ends. The terminal UI's @ list offers them as the user types.
func ProjectFiles(ctx context.Context, root string, limit int) []string {
	var out []string
	_ = newWalker(root).walk(ctx, func(rel string, d fs.DirEntry) error {
		if len(out) >= limit {
			return errStop
		}
		if d.IsDir() {
			rel += "/"
		}
		out = append(out, rel)
		return nil
	})
	return out
}
