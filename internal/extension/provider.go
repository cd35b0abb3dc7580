package extension

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/jsonrpc"
	"github.com/synaps-cli/synaps/internal/llm"
)

// ProviderDecl is a model provider an extension declared in initialize
// (capabilities.providers), read tolerantly: the id under "id" or "name",
// models as strings or objects with "id".
type ProviderDecl struct {
	ID     string
	Models []string
}

func decodeProviders(raw json.RawMessage) ([]ProviderDecl, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, errors.New("capabilities.providers must be an array of provider objects")
	}
	var out []ProviderDecl
	for i, item := range items {
		var p struct {
			ID     string            `json:"id"`
			Name   string            `json:"name"`
			Models []json.RawMessage `json:"models"`
		}
		if err := json.Unmarshal(item, &p); err != nil {
			return nil, fmt.Errorf("capabilities.providers[%d]: not an object", i)
		}
		d := ProviderDecl{ID: cmp.Or(p.ID, p.Name)}
		if d.ID == "" || strings.ContainsAny(d.ID, ": ") {
			return nil, fmt.Errorf("capabilities.providers[%d]: needs an \"id\" without ':' or spaces", i)
		}
		for _, m := range p.Models {
			var s string
			var o struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(m, &s) == nil && s != "" {
				d.Models = append(d.Models, s)
			} else if json.Unmarshal(m, &o) == nil && o.ID != "" {
				d.Models = append(d.Models, o.ID)
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// Provider returns the model provider for "<plugin>:<provider>:<model>".
func (h *Host) Provider(model string) (llm.Provider, error) {
	parts := strings.SplitN(model, ":", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return nil, fmt.Errorf("model %q: extension models are named <plugin>:<provider>:<model>", model)
	}
	pluginID, providerID, modelID := parts[0], parts[1], parts[2]
	h.mu.Lock()
	var ext *Extension
	for _, e := range h.exts {
		if e.ID() == pluginID {
			ext = e
		}
	}
	h.mu.Unlock()
	if ext == nil {
		return nil, fmt.Errorf("model %q: no running extension %q provides models; `synaps extensions list` shows what is loaded", model, pluginID)
	}
	decls, err := decodeProviders(ext.providers)
	if ext.providers == nil {
		return nil, fmt.Errorf("model %q: extension %s declares no providers (it needs the %q permission and capabilities.providers in its initialize result)", model, pluginID, contract.PermProvidersRegister)
	}
	if err != nil {
		return nil, fmt.Errorf("model %q: extension %s: %v", model, pluginID, err)
	}
	for _, d := range decls {
		if d.ID != providerID {
			continue
		}
		if len(d.Models) > 0 && !slices.Contains(d.Models, modelID) {
			return nil, fmt.Errorf("model %q: provider %s:%s offers %s", model, pluginID, providerID, strings.Join(d.Models, ", "))
		}
		return &extProvider{ext: ext, providerID: providerID, modelID: modelID, model: model}, nil
	}
	return nil, fmt.Errorf("model %q: extension %s has no provider %q", model, pluginID, providerID)
}

// extProvider is a model served by an extension through provider.complete.
// The answer arrives whole, so it is replayed to onEvent as one text event
// and one event per tool call.
type extProvider struct {
	ext                        *Extension
	providerID, modelID, model string
}

type providerParams struct {
	ProviderID   string         `json:"provider_id"`
	ModelID      string         `json:"model_id"`
	Model        string         `json:"model"`
	Messages     []llm.Message  `json:"messages"`
	SystemPrompt string         `json:"system_prompt"`
	Tools        []providerTool `json:"tools"`
	MaxTokens    int            `json:"max_tokens"`
	Temperature  *float64       `json:"temperature"`
}

type providerTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Complete sends one provider.complete and reads the answer as a whole
// response, reporting its text and tool uses through onEvent.
func (p *extProvider) Complete(ctx context.Context, req *llm.Request, onEvent func(llm.Event)) (*llm.Response, error) {
	tools := make([]providerTool, len(req.Tools))
	for i, t := range req.Tools {
		tools[i] = providerTool{t.Name, t.Description, t.InputSchema}
	}
	// Encoded here, once, so the send bounds can be checked on what goes
	// out (the connection sends the bytes as they are).
	params, err := json.Marshal(providerParams{
		ProviderID: p.providerID, ModelID: p.modelID, Model: p.model, Messages: req.Messages,
		SystemPrompt: req.System, Tools: tools, MaxTokens: req.MaxTokens, Temperature: req.Temperature,
	})
	if err != nil {
		return nil, fmt.Errorf("model %s: encoding the request: %w", p.model, err)
	}
	if err := checkSendable("the provider.complete request", params); err != nil {
		return nil, fmt.Errorf("model %s: %w; /compact makes the conversation smaller", p.model, err)
	}
	ctx, cancel := context.WithTimeout(ctx, p.ext.env.deadline(contract.MethodProviderComplete))
	defer cancel()
	raw, err := p.ext.call(ctx, contract.MethodProviderComplete, json.RawMessage(params),
		callOpts{doing: "answering provider.complete for", what: p.model, retry: true})
	if err != nil {
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			return nil, fmt.Errorf("model %s: %s", p.model, rpcErr.Message)
		}
		return nil, fmt.Errorf("model %s: %w", p.model, err)
	}
	return p.decodeResponse(raw, onEvent)
}

// ProviderModel is a model a running extension serves, for /model.
type ProviderModel struct {
	// Name is what --model and /model take: "<plugin>:<provider>:<model>";
	// for a provider that lists no models, "<plugin>:<provider>:<model>"
	// with the literal "<model>" — it takes any.
	Name string
	// Plugin is the extension's id.
	Plugin string
}

// Models lists the models of every running extension's providers, in
// plugin order.
func (h *Host) Models() []ProviderModel {
	h.mu.Lock()
	exts := append([]*Extension(nil), h.exts...)
	h.mu.Unlock()
	var out []ProviderModel
	for _, e := range exts {
		if e.providers == nil {
			continue
		}
		decls, err := decodeProviders(e.providers)
		if err != nil {
			continue // said when the model is chosen (Provider)
		}
		for _, d := range decls {
			models := d.Models
			if len(models) == 0 {
				models = []string{"<model>"}
			}
			for _, m := range models {
				out = append(out, ProviderModel{Name: e.ID() + ":" + d.ID + ":" + m, Plugin: e.ID()})
			}
		}
	}
	return out
}

// decodeResponse reads a provider.complete result: content as a string or
// blocks, a stop reason (inferred when absent) and usage.
func (p *extProvider) decodeResponse(raw json.RawMessage, onEvent func(llm.Event)) (*llm.Response, error) {
	var res struct {
		Content    json.RawMessage `json:"content"`
		StopReason string          `json:"stop_reason"`
		Usage      struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("model %s: provider.complete result is not an object with content: %v", p.model, err)
	}
	var blocks []llm.Block
	if text, err := hook.TextOf(res.Content); err == nil && !strings.HasPrefix(strings.TrimSpace(string(res.Content)), "[") {
		blocks = []llm.Block{{Type: llm.BlockText, Text: text}}
	} else if err := json.Unmarshal(res.Content, &blocks); err != nil {
		return nil, fmt.Errorf("model %s: provider.complete content must be a string or an array of blocks: %v", p.model, err)
	}
	hasTool := false
	for i := range blocks {
		b := &blocks[i]
		switch b.Type {
		case llm.BlockText:
			if onEvent != nil && b.Text != "" {
				onEvent(llm.Event{Type: llm.EventText, Text: b.Text})
			}
		case llm.BlockToolUse:
			hasTool = true
			if b.ID == "" {
				b.ID = fmt.Sprintf("toolu_ext_%d", i)
			}
			if len(b.Input) == 0 {
				b.Input = json.RawMessage("{}")
			}
			if onEvent != nil {
				use := *b
				onEvent(llm.Event{Type: llm.EventToolUse, ToolUse: &use})
			}
		}
	}
	stop := res.StopReason
	if stop == "" {
		stop = llm.StopEndTurn
		if hasTool {
			stop = llm.StopToolUse
		}
	}
	return &llm.Response{
		Message:    llm.Message{Role: llm.RoleAssistant, Content: blocks},
		StopReason: stop,
		Usage:      llm.Usage{InputTokens: res.Usage.InputTokens, OutputTokens: res.Usage.OutputTokens},
		Model:      p.model,
	}, nil
}
