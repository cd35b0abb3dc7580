package extension

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

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
	// Streaming holds the models whose capabilities say streaming: true
	// (SynapsCLI's {"streaming": true}, or a list holding "streaming"):
	// they are asked with provider.stream.
	Streaming map[string]bool
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
				ID           string          `json:"id"`
				Capabilities json.RawMessage `json:"capabilities"`
			}
			if json.Unmarshal(m, &s) == nil && s != "" {
				d.Models = append(d.Models, s)
			} else if json.Unmarshal(m, &o) == nil && o.ID != "" {
				d.Models = append(d.Models, o.ID)
				if streams(o.Capabilities) {
					if d.Streaming == nil {
						d.Streaming = map[string]bool{}
					}
					d.Streaming[o.ID] = true
				}
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// streams reads a model's capabilities: {"streaming": true} or a list
// holding "streaming".
func streams(caps json.RawMessage) bool {
	var obj struct {
		Streaming bool `json:"streaming"`
	}
	if json.Unmarshal(caps, &obj) == nil && obj.Streaming {
		return true
	}
	var list []string
	return json.Unmarshal(caps, &list) == nil && slices.Contains(list, "streaming")
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
	// Started in the background (Begin): its providers are known when
	// its start ends, which its initialize deadline bounds.
	ext.awaitStart(context.Background())
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
		return &extProvider{ext: ext, providerID: providerID, modelID: modelID, model: model, stream: d.Streaming[modelID]}, nil
	}
	return nil, fmt.Errorf("model %q: extension %s has no provider %q", model, pluginID, providerID)
}

// extProvider is a model served by an extension through provider.complete.
// The answer arrives whole, so it is replayed to onEvent as one text event
// and one event per tool call.
type extProvider struct {
	ext                        *Extension
	providerID, modelID, model string
	// stream: the model declared streaming, so it is asked with
	// provider.stream and its provider.stream.event notifications are
	// passed on as they come.
	stream bool
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
	// Effort is the thinking level the user asked for (off, low, medium,
	// high, max), omitted for the model's default.
	Effort string `json:"effort,omitempty"`
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
		Effort: string(req.Effort),
	})
	if err != nil {
		return nil, fmt.Errorf("model %s: encoding the request: %w", p.model, err)
	}
	if err := checkSendable("the provider.complete request", params); err != nil {
		return nil, fmt.Errorf("model %s: %w; /compact makes the conversation smaller", p.model, err)
	}
	method := contract.MethodProviderComplete
	var sink *streamSink
	if p.stream {
		method = contract.MethodProviderStream
		sink = &streamSink{onEvent: onEvent}
		if !p.ext.setStream(sink) {
			return nil, fmt.Errorf("model %s: extension %s is already streaming an answer; one request at a time", p.model, p.ext.ID())
		}
		defer p.ext.setStream(nil)
	}
	ctx, cancel := context.WithTimeout(ctx, p.ext.env.deadline(method))
	defer cancel()
	raw, err := p.ext.call(ctx, method, json.RawMessage(params),
		callOpts{doing: "answering " + method + " for", what: p.model, retry: sink == nil, noRetry: "a streamed answer is not asked twice"})
	if err != nil {
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			return nil, fmt.Errorf("model %s: %s", p.model, rpcErr.Message)
		}
		return nil, fmt.Errorf("model %s: %w", p.model, err)
	}
	if sink == nil {
		return p.decodeResponse(raw, onEvent)
	}
	return p.decodeStreamed(raw, sink)
}

// streamSink gathers one provider.stream answer from its
// provider.stream.event notifications, passing text and thinking on as
// they come.
type streamSink struct {
	onEvent func(llm.Event)

	mu       sync.Mutex
	text     strings.Builder
	thinking strings.Builder
	uses     []llm.Block
	usage    *llm.Usage
	err      string
}

// event reads one provider.stream.event: {event: {...}} or the event
// itself, typed text|thinking (delta or text), tool_use, usage, error or
// done.
func (s *streamSink) event(params json.RawMessage) {
	var wrap struct {
		Event json.RawMessage `json:"event"`
	}
	if json.Unmarshal(params, &wrap) == nil && len(wrap.Event) > 0 && wrap.Event[0] == '{' {
		params = wrap.Event
	}
	var ev struct {
		Type    string          `json:"type"`
		Delta   string          `json:"delta"`
		Text    string          `json:"text"`
		ID      string          `json:"id"`
		Name    string          `json:"name"`
		Input   json.RawMessage `json:"input"`
		Message string          `json:"message"`
		// usage events
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	}
	if json.Unmarshal(params, &ev) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch ev.Type {
	case "text", "thinking":
		t := cmp.Or(ev.Delta, ev.Text)
		if t == "" {
			return
		}
		kind := llm.EventText
		if ev.Type == "thinking" {
			kind = llm.EventThinking
			s.thinking.WriteString(t)
		} else {
			s.text.WriteString(t)
		}
		if s.onEvent != nil {
			s.onEvent(llm.Event{Type: kind, Text: t})
		}
	case "tool_use":
		if ev.Name == "" {
			return
		}
		in := ev.Input
		if len(in) == 0 || in[0] != '{' {
			in = json.RawMessage("{}")
		}
		s.uses = append(s.uses, llm.Block{Type: llm.BlockToolUse, ID: cmp.Or(ev.ID, fmt.Sprintf("toolu_ext_stream_%d", len(s.uses))), Name: ev.Name, Input: in})
	case "usage":
		s.usage = &llm.Usage{InputTokens: ev.InputTokens, OutputTokens: ev.OutputTokens}
	case "error":
		s.err = cmp.Or(ev.Message, "the stream reported an error")
	}
}

// setStream makes s the receiver of the extension's
// provider.stream.event notifications (nil: none); it refuses a second
// stream while one runs.
func (e *Extension) setStream(s *streamSink) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s != nil && e.stream != nil {
		return false
	}
	e.stream = s
	return true
}

// decodeStreamed builds the response of a provider.stream call: the
// final result's content when it has any (its text was streamed already,
// so only its tool uses are reported), else what the events carried.
func (p *extProvider) decodeStreamed(raw json.RawMessage, sink *streamSink) (*llm.Response, error) {
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if sink.err != "" {
		return nil, fmt.Errorf("model %s: %s", p.model, sink.err)
	}
	streamed := sink.text.Len() > 0 || sink.thinking.Len() > 0
	var probe struct {
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(raw, &probe)
	if c := strings.TrimSpace(string(probe.Content)); c != "" && c != "null" && c != "[]" && c != `""` {
		emit := sink.onEvent
		if streamed && emit != nil {
			emit = func(ev llm.Event) {
				if ev.Type != llm.EventText && ev.Type != llm.EventThinking {
					sink.onEvent(ev)
				}
			}
		}
		return p.decodeResponse(raw, emit)
	}
	var blocks []llm.Block
	if sink.thinking.Len() > 0 {
		blocks = append(blocks, llm.Block{Type: llm.BlockThinking, Thinking: sink.thinking.String()})
	}
	if sink.text.Len() > 0 {
		blocks = append(blocks, llm.Block{Type: llm.BlockText, Text: sink.text.String()})
	}
	blocks = append(blocks, sink.uses...)
	var res struct {
		StopReason string `json:"stop_reason"`
		U          struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
	}
	_ = json.Unmarshal(raw, &res)
	used := llm.Usage{InputTokens: res.U.InputTokens, OutputTokens: res.U.OutputTokens}
	if used == (llm.Usage{}) && sink.usage != nil {
		used = *sink.usage
	}
	stop := res.StopReason
	if stop == "" {
		stop = llm.StopEndTurn
		if len(sink.uses) > 0 {
			stop = llm.StopToolUse
		}
	}
	for i := range sink.uses {
		if sink.onEvent != nil {
			use := sink.uses[i]
			sink.onEvent(llm.Event{Type: llm.EventToolUse, ToolUse: &use})
		}
	}
	return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: blocks}, StopReason: stop, Usage: used, Model: p.model}, nil
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
		if !e.started() || e.providers == nil {
			continue // still starting (Begin): not listed yet
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
