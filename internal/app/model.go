package app

import (
	"fmt"
	"path/filepath"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/anthropic"
	"github.com/synaps-cli/synaps/internal/llm/openai"
	"github.com/synaps-cli/synaps/internal/llm/script"
)

// setting reads a value from the environment first, then the config file.
func setting(getenv func(string) string, cfg *config.File, env, key string) string {
	if v := getenv(env); v != "" {
		return v
	}
	v, _ := cfg.Get(key)
	return v
}

// DefaultModel picks the model when neither --model nor config `model`
// names one: Anthropic if its key is set, else OpenAI, else an error that
// says what to do.
func DefaultModel(getenv func(string) string, cfg *config.File) (string, error) {
	if m, ok := cfg.Get("model"); ok && m != "" {
		return m, nil
	}
	if setting(getenv, cfg, "ANTHROPIC_API_KEY", "anthropic_api_key") != "" {
		return "anthropic/claude-sonnet-4-5", nil
	}
	if setting(getenv, cfg, "OPENAI_API_KEY", "openai_api_key") != "" {
		return "openai/gpt-4o", nil
	}
	return "", fmt.Errorf("no model configured: set ANTHROPIC_API_KEY or OPENAI_API_KEY, pass --model (anthropic/<model>, openai/<model>, <plugin>:<provider>:<model>, script:FILE), or put `model = …` in %s; `synaps demo` runs without any of these", cfg.Path)
}

// ResolveModel returns the provider for a model name and the model id to
// send it. Relative script paths resolve against workDir.
func ResolveModel(name string, getenv func(string) string, cfg *config.File, host *extension.Host, workDir string) (llm.Provider, string, error) {
	kind, model, err := llm.ParseModel(name)
	if err != nil {
		return nil, "", err
	}
	switch kind {
	case llm.KindAnthropic:
		key := setting(getenv, cfg, "ANTHROPIC_API_KEY", "anthropic_api_key")
		base := setting(getenv, cfg, "ANTHROPIC_BASE_URL", "anthropic_base_url")
		if key == "" && base == "" {
			return nil, "", fmt.Errorf("model %s needs ANTHROPIC_API_KEY (or `anthropic_api_key = …` in %s)", name, cfg.Path)
		}
		return anthropic.New(anthropic.Config{APIKey: key, BaseURL: base}), model, nil
	case llm.KindOpenAI:
		key := setting(getenv, cfg, "OPENAI_API_KEY", "openai_api_key")
		base := setting(getenv, cfg, "OPENAI_BASE_URL", "openai_base_url")
		if key == "" && base == "" {
			return nil, "", fmt.Errorf("model %s needs OPENAI_API_KEY (or `openai_api_key = …` in %s), or OPENAI_BASE_URL for a local OpenAI-compatible server", name, cfg.Path)
		}
		return openai.New(openai.Config{APIKey: key, BaseURL: base}), model, nil
	case llm.KindScript:
		path := model
		if !filepath.IsAbs(path) {
			path = filepath.Join(workDir, path)
		}
		p, err := script.Load(path)
		if err != nil {
			return nil, "", err
		}
		return p, "script", nil
	case llm.KindExtension:
		if host == nil {
			return nil, "", fmt.Errorf("model %s is provided by an extension, but extensions are off (--no-extensions)", name)
		}
		p, err := host.Provider(model)
		if err != nil {
			return nil, "", err
		}
		return p, model, nil
	}
	return nil, "", fmt.Errorf("model %s: unsupported kind %s", name, kind)
}
