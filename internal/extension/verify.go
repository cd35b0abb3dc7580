package extension

import "github.com/synaps-cli/synaps/internal/config"

// verifyMode is config plugins.verify for discovery: "strict" holds user
// plugins whose files changed since install (plugin.Discover).
func verifyMode(cfg *config.File) string {
	mode, _ := cfg.PluginsVerify()
	return mode
}
