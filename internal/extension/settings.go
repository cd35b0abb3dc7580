package extension

// Custom settings editors (SynapsCLI's settings.editor.*): the extension
// renders rows for a settings field, the user's keys go to it, and what
// it commits becomes the field's value in the plugin's config file.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/jsonrpc"
)

// EditorRow is one row an editor renders.
type EditorRow struct {
	Label      string          `json:"label"`
	Marker     string          `json:"marker,omitempty"`
	Selectable *bool           `json:"selectable,omitempty"`
	Data       json.RawMessage `json:"data,omitempty"`
}

// EditorState is an editor's last render, and what a commit chose.
type EditorState struct {
	Rows   []EditorRow `json:"rows"`
	Cursor *int        `json:"cursor"`
	Footer string      `json:"footer"`
	// Value and Key are set when the editor committed: write Value to
	// the config key Key. Closed: the editor ended without a value.
	Value  *string `json:"-"`
	Key    string  `json:"-"`
	Closed bool    `json:"-"`
}

// SettingsEditor opens the editor of a settings field (key ""), or sends
// it one key (Up, Down, Enter, Esc, Char(x), …). Enter that the editor
// does not answer with a new render commits the row under the cursor
// (settings.editor.commit); the reply says what to write.
func (h *Host) SettingsEditor(ctx context.Context, id, category, field, key string) (EditorState, error) {
	e := h.extension(id)
	if e == nil {
		return EditorState{}, fmt.Errorf("the extension of plugin %s is not running, so its %s editor cannot open", id, field)
	}
	slot := id + "\x00" + field
	call := func(method string, params any) (json.RawMessage, error) {
		ctx, cancel := context.WithTimeout(ctx, e.env.deadline(method))
		defer cancel()
		raw, err := e.call(ctx, method, params, callOpts{doing: "editing setting", what: field, retry: true})
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			return nil, fmt.Errorf("%s of plugin %s: %s", method, id, rpcErr.Message)
		}
		return raw, err
	}
	if key == "" {
		raw, err := call(contract.MethodSettingsEditorOpen, map[string]string{"category": category, "field": field})
		if err != nil {
			return EditorState{}, err
		}
		st, ok, err := decodeRender(raw)
		if err != nil || !ok {
			return EditorState{}, fmt.Errorf("invalid settings.editor.open render from plugin %s: %v; it must hold \"rows\"", id, cmpErr(err, "no rows"))
		}
		h.setEditor(slot, &st)
		return st, nil
	}
	prev, open := h.editor(slot)
	if !open {
		return EditorState{}, fmt.Errorf("the %s editor of plugin %s is not open; /settings %s %s opens it", field, id, id, field)
	}
	raw, err := call(contract.MethodSettingsEditorKey, map[string]string{"key": key, "category": category, "field": field})
	if err != nil {
		return EditorState{}, err
	}
	if st, ok, _ := decodeRender(raw); ok {
		h.setEditor(slot, &st)
		return st, nil
	}
	if key == "Esc" {
		h.setEditor(slot, nil)
		return EditorState{Closed: true}, nil
	}
	if key != "Enter" {
		return prev, nil
	}
	// Commit the row under the cursor.
	var value any
	if prev.Cursor != nil && *prev.Cursor >= 0 && *prev.Cursor < len(prev.Rows) {
		r := prev.Rows[*prev.Cursor]
		value = r.Label
		if len(r.Data) > 0 {
			value = r.Data
		}
	}
	raw, err = call(contract.MethodSettingsEditorCommit, map[string]any{"category": category, "field": field, "value": value})
	if err != nil {
		return EditorState{}, err
	}
	h.setEditor(slot, nil)
	st := EditorState{Closed: true}
	k, v, ok := commitEffect(raw, field)
	if ok {
		st.Key, st.Value = k, &v
	}
	return st, nil
}

// commitEffect reads a commit reply as SynapsCLI does: ok:false writes
// nothing; an intent "select" writes the first of model_path, path,
// value, model_id to the last segment of its config_key (else the
// field); otherwise "value" (or the whole reply) is written to the
// field: a string as it is ("model:X" as X), anything else as JSON.
func commitEffect(raw json.RawMessage, field string) (key, value string, ok bool) {
	var r struct {
		OK     *bool           `json:"ok"`
		Intent json.RawMessage `json:"intent"`
		Kind   string          `json:"kind"`
		Value  json.RawMessage `json:"value"`
	}
	_ = json.Unmarshal(raw, &r)
	if r.OK != nil && !*r.OK {
		return "", "", false
	}
	intent := r.Intent
	if len(intent) == 0 && r.Kind != "" {
		intent = raw
	}
	if len(intent) > 0 {
		var in struct {
			Kind      string `json:"kind"`
			ConfigKey string `json:"config_key"`
			ModelPath string `json:"model_path"`
			Path      string `json:"path"`
			Value     string `json:"value"`
			ModelID   string `json:"model_id"`
		}
		_ = json.Unmarshal(intent, &in)
		if in.Kind != "select" {
			return "", "", false // a download intent is not acted on here
		}
		key = field
		if in.ConfigKey != "" {
			parts := strings.Split(in.ConfigKey, ".")
			key = parts[len(parts)-1]
		}
		for _, v := range []string{in.ModelPath, in.Path, in.Value, in.ModelID} {
			if v != "" {
				return key, v, true
			}
		}
		return "", "", false
	}
	v := r.Value
	if len(v) == 0 {
		v = raw
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return field, strings.TrimPrefix(s, "model:"), true
	}
	return field, string(v), true
}

// decodeRender reads a render object, bare or as {render: {...}}; ok is
// false when there is none (no rows).
func decodeRender(raw json.RawMessage) (EditorState, bool, error) {
	var wrap struct {
		Render json.RawMessage `json:"render"`
	}
	if json.Unmarshal(raw, &wrap) == nil && len(wrap.Render) > 0 && wrap.Render[0] == '{' {
		raw = wrap.Render
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(raw, &probe); err != nil {
		return EditorState{}, false, err
	}
	if _, ok := probe["rows"]; !ok {
		return EditorState{}, false, nil
	}
	var st EditorState
	if err := json.Unmarshal(raw, &st); err != nil {
		return EditorState{}, false, err
	}
	for i, r := range st.Rows {
		if r.Label == "" {
			return EditorState{}, false, fmt.Errorf("rows[%d] has no label", i)
		}
	}
	return st, true, nil
}

func cmpErr(err error, otherwise string) string {
	if err != nil {
		return err.Error()
	}
	return otherwise
}

// extension finds the running extension of plugin id.
func (h *Host) extension(id string) *Extension {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, x := range h.exts {
		if x.ID() == id {
			return x
		}
	}
	return nil
}

func (h *Host) editor(slot string) (EditorState, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	st, ok := h.editors[slot]
	return st, ok
}

func (h *Host) setEditor(slot string, st *EditorState) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if st == nil {
		delete(h.editors, slot)
		return
	}
	if h.editors == nil {
		h.editors = map[string]EditorState{}
	}
	h.editors[slot] = *st
}

// SidecarSpawnArgs asks plugin id's extension for its sidecar's
// arguments (sidecar.spawn_args). An extension that does not know the
// method gives none.
func (h *Host) SidecarSpawnArgs(ctx context.Context, id string) ([]string, error) {
	e := h.extension(id)
	if e == nil {
		return nil, nil // no extension running: the defaults
	}
	ctx, cancel := context.WithTimeout(ctx, e.env.deadline(contract.MethodSidecarSpawnArgs))
	defer cancel()
	raw, err := e.call(ctx, contract.MethodSidecarSpawnArgs, nil, callOpts{doing: "asking", what: "sidecar.spawn_args", retry: true})
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		if rpcErr.Code == jsonrpc.CodeMethodNotFound || strings.Contains(strings.ToLower(rpcErr.Message), "method not found") || strings.Contains(strings.ToLower(rpcErr.Message), "unknown method") {
			return nil, nil
		}
		return nil, fmt.Errorf("sidecar.spawn_args of plugin %s: %s", id, rpcErr.Message)
	}
	if err != nil {
		return nil, err
	}
	var r struct {
		Args []string `json:"args"`
	}
	if err := json.Unmarshal(raw, &r); err != nil && string(raw) != "null" {
		return nil, fmt.Errorf("sidecar.spawn_args of plugin %s: %v; answer {\"args\": [...]}", id, err)
	}
	return r.Args, nil
}
