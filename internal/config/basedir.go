package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// PluginsDir is where a base directory keeps the user's plugins.
func PluginsDir(base string) string { return filepath.Join(base, "plugins") }

// EnsureBaseDir creates the base directory (mode 0700: it holds sessions,
// keys in config and extension logs) and its plugins/ directory, so that
// the authoring guide's install step (`cp -r my-ext ~/.synaps-cli/plugins/`)
// works on a machine where synaps has only been run once. An existing base
// directory keeps its mode: it is the user's.
//
// Every synaps command calls it at start, so the common case — both exist
// — costs one stat.
func EnsureBaseDir(base string) error {
	plugins := PluginsDir(base)
	if info, err := os.Stat(plugins); err == nil && info.IsDir() {
		return nil
	}
	info, err := os.Stat(base)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(base, 0o700); err != nil {
			return fmt.Errorf("cannot create the synaps directory %s: %w; create it yourself or set %s to a writable directory", base, err, BaseDirEnv)
		}
	case err != nil:
		return fmt.Errorf("cannot use the synaps directory %s: %w; set %s to a directory you can write", base, err, BaseDirEnv)
	case !info.IsDir():
		return fmt.Errorf("%s is a file, but synaps keeps its data in a directory there; move the file away or set %s to another directory", base, BaseDirEnv)
	}
	if err := os.Mkdir(plugins, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("cannot create %s: %w; create it yourself (mkdir -p %s)", plugins, err, plugins)
	}
	if info, err := os.Stat(plugins); err == nil && !info.IsDir() {
		return fmt.Errorf("%s is not a directory; synaps looks for plugins in it, so move the file away", plugins)
	}
	return nil
}
