package builtin

import (
	"context"
	"io/fs"
)

// WalkProject walks root as git sees it (the find tool's walk: .git and
// what .gitignore files ignore are left out), calling fn with each
// entry's path relative to root ("/" separators), directories before
// what they hold; fs.SkipDir from fn skips a directory. Checkpoints
// index the project with it before and after a bash command.
func WalkProject(ctx context.Context, root string, fn func(rel string, d fs.DirEntry) error) error {
	return newWalker(root).walk(ctx, fn)
}
