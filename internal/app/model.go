package app

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/anthropic"
	"github.com/synaps-cli/synaps/internal/llm/openai"
	"github.com/synaps-cli/synaps/internal/llm/script"
	"github.com/synaps-cli/synaps/internal/plural"
)

// setting reads a value from the environment first, then the config file.
func setting(getenv func(string) string, cfg *config.File, env, key string) string {
	if v := getenv(env); v != "" {
		return v
	}
	v, _ := cfg.Get(key)
	return v
}

// The models synaps picks with only an API key set; completion and /model
// offer them too.
const (
	DefaultAnthropicModel = "anthropic/claude-sonnet-4-5"
	DefaultOpenAIModel    = "openai/gpt-4o"
)

// DefaultModel picks the model when neither --model nor config `model`
// names one: Anthropic if its key is set, else OpenAI, else an error that
// says what to do.
func DefaultModel(getenv func(string) string, cfg *config.File) (string, error) {
	if m, ok := cfg.Get("model"); ok && m != "" {
		return m, nil
	}
	if setting(getenv, cfg, "ANTHROPIC_API_KEY", "anthropic_api_key") != "" {
		return DefaultAnthropicModel, nil
	}
	if setting(getenv, cfg, "OPENAI_API_KEY", "openai_api_key") != "" {
		return DefaultOpenAIModel, nil
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

// knownModels are offered by /model for a provider whose key or base URL
// is set when it cannot list its models itself: the default synaps picks,
// and its siblings. Any other anthropic/<model> or openai/<model> works
// as well.
var knownModels = map[string][]string{
	llm.KindAnthropic: {DefaultAnthropicModel, "anthropic/claude-opus-4-1", "anthropic/claude-haiku-4-5"},
	llm.KindOpenAI:    {DefaultOpenAIModel, "openai/gpt-4o-mini", "openai/o3"},
}

// Bounds of asking the providers for their models.
const (
	// listModelsTimeout is how long /model waits for a provider's list.
	listModelsTimeout = 3 * time.Second
	// maxListedModels is how many of one provider's models /model shows.
	maxListedModels = 20
)

// ModelChoice is one model /model offers.
type ModelChoice struct {
	// Name is what /model NAME takes.
	Name string
	// From says why it is offered: the provider and what configures it.
	From string
}

// Models lists what /model can switch to: the configured model; for each
// provider whose key or base URL is set (environment or config), the
// models it lists (GET …/models, at most maxListedModels, asked in
// parallel within listModelsTimeout) or, when it cannot list them, its
// well-known models and why; and the models the running extensions
// serve. Without a key or URL nothing of a provider is offered, since it
// could not answer. notes say what could not be listed.
func (a *App) Models(ctx context.Context) (choices []ModelChoice, notes []string) {
	seen := map[string]bool{}
	add := func(name, from string) {
		if !seen[name] {
			seen[name] = true
			choices = append(choices, ModelChoice{name, from})
		}
	}
	if m, ok := a.Config.Get("model"); ok && m != "" {
		add(m, "configured in "+a.Config.Path)
	}
	type listing struct {
		kind, from string
		ids        []string
		err        error
	}
	var listings []*listing
	var wg sync.WaitGroup
	for _, p := range []struct{ kind, name, keyEnv, keyCfg, urlEnv, urlCfg string }{
		{llm.KindAnthropic, "Anthropic", "ANTHROPIC_API_KEY", "anthropic_api_key", "ANTHROPIC_BASE_URL", "anthropic_base_url"},
		{llm.KindOpenAI, "OpenAI-compatible", "OPENAI_API_KEY", "openai_api_key", "OPENAI_BASE_URL", "openai_base_url"},
	} {
		key := setting(a.opts.Getenv, a.Config, p.keyEnv, p.keyCfg)
		url := setting(a.opts.Getenv, a.Config, p.urlEnv, p.urlCfg)
		if key == "" && url == "" {
			continue
		}
		l := &listing{kind: p.kind, from: p.name + " (" + p.keyEnv + ")"}
		if url != "" {
			l.from = p.name + " at " + url
		}
		listings = append(listings, l)
		prov, _, err := ResolveModel(p.kind+"/any", a.opts.Getenv, a.Config, nil, a.WorkDir)
		lister, ok := prov.(llm.ModelLister)
		if err != nil || !ok {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(ctx, listModelsTimeout)
			defer cancel()
			l.ids, l.err = lister.ListModels(ctx)
		}()
	}
	wg.Wait()
	for _, l := range listings {
		if l.err != nil || len(l.ids) == 0 {
			if l.err != nil {
				notes = append(notes, fmt.Sprintf("%s: %v; showing well-known models instead", l.from, l.err))
			}
			for _, m := range knownModels[l.kind] {
				add(m, l.from)
			}
			continue
		}
		for i, id := range l.ids {
			if i == maxListedModels {
				notes = append(notes, fmt.Sprintf("%s lists %s", l.from, plural.Count(len(l.ids)-maxListedModels, "more model")))
				break
			}
			add(l.kind+"/"+id, l.from)
		}
	}
	if a.Host != nil {
		for _, m := range a.Host.Models() {
			add(m.Name, "extension "+m.Plugin)
		}
	}
	if a.Model != "" && !seen[a.Model] {
		choices = append([]ModelChoice{{a.Model, "the current model"}}, choices...)
	}
	return choices, notes
}
