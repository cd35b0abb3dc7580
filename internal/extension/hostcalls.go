package extension

// Requests and notifications an extension sends to synaps (SynapsCLI's
// extension → host surface): config.get, config.set, config.subscribe with
// config.changed notifications, memory.append, memory.query, and the log
// and notify notifications. Each request is gated by its permission
// (contract.HostMethods): an unknown method is answered -32601, a known one
// whose permission the manifest lacks CodePermissionDenied with a message
// naming the permission.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/jsonrpc"
	"github.com/synaps-cli/synaps/internal/memory"
)

// configPoll is how often a subscribed extension's config file is checked
// for changes made by another process (`synaps extensions config` in a
// second terminal). Changes made through config.set are sent at once.
const configPoll = 500 * time.Millisecond

// handleRequest answers one request from the extension. It runs on its own
// goroutine (jsonrpc.Conn serves each request so).
func (e *Extension) handleRequest(ctx context.Context, method string, params json.RawMessage) (any, error) {
	perm, known := contract.HostMethods[method]
	if !known {
		return nil, jsonrpc.MethodNotFound(method)
	}
	if perm != "" && !e.plugin.Manifest.Extension.Permissions.Has(perm) {
		data, _ := json.Marshal(map[string]string{"permission": perm})
		return nil, &jsonrpc.Error{Code: contract.CodePermissionDenied, Data: data,
			Message: fmt.Sprintf("permission denied: %s requires the %q permission; add it to extension.permissions in %s", method, perm, e.plugin.ManifestFile())}
	}
	switch method {
	case contract.HostConfigGet:
		return e.configGet(params)
	case contract.HostConfigSet:
		return e.configSet(params)
	case contract.HostConfigSubscribe:
		return e.configSubscribe(params)
	case contract.HostMemoryAppend:
		return e.memoryAppend(params)
	case contract.HostMemoryQuery:
		return e.memoryQuery(params)
	}
	return nil, jsonrpc.MethodNotFound(method)
}

func invalidParams(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// decodeParams reads params into v; null or absent params leave v as it is.
func decodeParams(method string, params json.RawMessage, v any) error {
	if len(bytes.TrimSpace(params)) == 0 || string(bytes.TrimSpace(params)) == "null" {
		return nil
	}
	if err := json.Unmarshal(params, v); err != nil {
		return invalidParams("%s: params must be an object: %v", method, err)
	}
	return nil
}

// configGet returns {value: string|null}: a declared key resolved as
// initialize resolves it (environment, plugin config file, global config,
// secret_env, default), read afresh; another key from the plugin's config
// file.
func (e *Extension) configGet(params json.RawMessage) (any, error) {
	var p struct {
		Key string `json:"key"`
	}
	if err := decodeParams(contract.HostConfigGet, params, &p); err != nil {
		return nil, err
	}
	if err := CheckConfigKey(p.Key); err != nil {
		return nil, invalidParams("config.get: %v", err)
	}
	file, err := config.Load(PluginConfigFile(e.plugin))
	if err != nil {
		return nil, &jsonrpc.Error{Code: -32000, Message: "config.get: " + err.Error()}
	}
	for i := range e.plugin.Manifest.Extension.Config {
		entry := &e.plugin.Manifest.Extension.Config[i]
		if entry.Key != p.Key {
			continue
		}
		src := configSources{getenv: e.env.getenv, global: e.env.config, file: file, projectDir: e.env.projectDir, owners: e.envOwners}
		v, _, err := resolveEntry(src, e.plugin, entry)
		if err != nil || v.Source == "" {
			return map[string]any{"value": nil}, nil
		}
		return map[string]any{"value": v.String()}, nil
	}
	if v, ok := file.Get(p.Key); ok {
		return map[string]any{"value": v}, nil
	}
	return map[string]any{"value": nil}, nil
}

// configSet writes {key, value} to the plugin's config file ({ok: true}).
// value is a string as SynapsCLI has it; a number or boolean is written as
// its JSON text, null or "" removes the key. A declared key's value must
// fit its type.
func (e *Extension) configSet(params json.RawMessage) (any, error) {
	var p struct {
		Key   string          `json:"key"`
		Value json.RawMessage `json:"value"`
	}
	if err := decodeParams(contract.HostConfigSet, params, &p); err != nil {
		return nil, err
	}
	if err := CheckConfigKey(p.Key); err != nil {
		return nil, invalidParams("config.set: %v", err)
	}
	value := ""
	switch kind := jsonKind(p.Value); kind {
	case "nothing", "null":
	case "a string":
		_ = json.Unmarshal(p.Value, &value)
	case "a number", "a boolean":
		value = string(bytes.TrimSpace(p.Value))
	default:
		return nil, invalidParams("config.set: value must be a string, got %s", kind)
	}
	if _, err := SetConfig(e.plugin, p.Key, value, true); err != nil {
		return nil, invalidParams("config.set: %v", err)
	}
	e.env.configChanged(e.plugin.Dir)
	return map[string]any{"ok": true}, nil
}

// configSubscribe starts config.changed notifications for the keys named
// in params.keys (all keys when absent). It answers {ok: true}.
func (e *Extension) configSubscribe(params json.RawMessage) (any, error) {
	var p struct {
		Keys []string `json:"keys"`
	}
	if err := decodeParams(contract.HostConfigSubscribe, params, &p); err != nil {
		// SynapsCLI takes any params here; so does synaps, subscribing
		// to every key.
		p.Keys = nil
	}
	e.watchConfig(p.Keys)
	return map[string]any{"ok": true}, nil
}

func (e *Extension) memoryNamespace(method, ns string) (string, error) {
	if ns == "" {
		return e.ID(), nil
	}
	if ns != e.ID() {
		return "", invalidParams("%s: namespace %q is not this extension's; an extension reads and writes only its own namespace, %q", method, ns, e.ID())
	}
	return ns, nil
}

// memoryAppend stores {namespace?, content, tags?, meta?}; it answers
// {ok: true, timestamp_ms}.
func (e *Extension) memoryAppend(params json.RawMessage) (any, error) {
	var p struct {
		Namespace string          `json:"namespace"`
		Content   *string         `json:"content"`
		Tags      []string        `json:"tags"`
		Meta      json.RawMessage `json:"meta"`
	}
	if err := decodeParams(contract.HostMemoryAppend, params, &p); err != nil {
		return nil, err
	}
	ns, err := e.memoryNamespace(contract.HostMemoryAppend, p.Namespace)
	if err != nil {
		return nil, err
	}
	if p.Content == nil {
		return nil, invalidParams("memory.append: missing content (a string of at most %d bytes)", memory.MaxContent)
	}
	if len(*p.Content) > memory.MaxContent {
		return nil, invalidParams("memory.append: content is %d bytes; at most %d are stored per record", len(*p.Content), memory.MaxContent)
	}
	rec, err := e.env.memory.Append(ns, *p.Content, p.Tags, p.Meta)
	if err != nil {
		return nil, &jsonrpc.Error{Code: -32000, Message: "memory.append: " + err.Error()}
	}
	return map[string]any{"ok": true, "timestamp_ms": rec.TimestampMS}, nil
}

// memoryQuery answers {records: [...]}, newest first.
func (e *Extension) memoryQuery(params json.RawMessage) (any, error) {
	var p struct {
		Namespace       string `json:"namespace"`
		ContentContains string `json:"content_contains"`
		TagPrefix       string `json:"tag_prefix"`
		SinceMS         int64  `json:"since_ms"`
		UntilMS         int64  `json:"until_ms"`
		Limit           int    `json:"limit"`
	}
	if err := decodeParams(contract.HostMemoryQuery, params, &p); err != nil {
		return nil, err
	}
	ns, err := e.memoryNamespace(contract.HostMemoryQuery, p.Namespace)
	if err != nil {
		return nil, err
	}
	recs, err := e.env.memory.Query(ns, memory.Query{ContentContains: p.ContentContains, TagPrefix: p.TagPrefix, SinceMS: p.SinceMS, UntilMS: p.UntilMS, Limit: p.Limit})
	if err != nil {
		return nil, &jsonrpc.Error{Code: -32000, Message: "memory.query: " + err.Error()}
	}
	return map[string]any{"records": recs}, nil
}

// handleNotification reads a notification from the extension. It runs on
// the connection's read loop and must not block.
func (e *Extension) handleNotification(method string, params json.RawMessage) {
	switch method {
	case contract.NotifyLog, contract.NotifyNotify:
		var p struct {
			Level   string `json:"level"`
			Message string `json:"message"`
			Text    string `json:"text"`
		}
		if json.Unmarshal(params, &p) != nil {
			// A bare string, as some write it.
			_ = json.Unmarshal(params, &p.Message)
		}
		if p.Message == "" {
			p.Message = p.Text
		}
		if p.Message == "" {
			e.log.note("notification %s without a message: %s", method, truncate(string(params), 200))
			return
		}
		level := ""
		if p.Level != "" {
			level = p.Level + ": "
		}
		e.log.note("%s %s%s", method, level, truncate(p.Message, 4000))
		if method == contract.NotifyNotify {
			msg := fmt.Sprintf("%s: %s%s", e.ID(), level, truncate(p.Message, 1000))
			go e.env.notify.say("%s", msg)
		}
		return
	}
	if e.commandNotification(method, params) {
		return
	}
	if method == contract.NotifyProviderStreamEvent {
		e.mu.Lock()
		sink := e.stream
		e.mu.Unlock()
		if sink != nil {
			sink.event(params)
			return
		}
	}
	if why, ok := contract.UnsupportedNotifications[method]; ok {
		if e.noteOnce(method) {
			e.addProblem(why)
		}
		return
	}
	e.log.note("notification %s %s", method, truncate(string(params), 200))
}

// noteOnce reports whether key is new for this extension, and logs it as
// seen.
func (e *Extension) noteOnce(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.seenNotes == nil {
		e.seenNotes = map[string]bool{}
	}
	if e.seenNotes[key] {
		return false
	}
	e.seenNotes[key] = true
	return true
}

// addProblem records a warning shown with the extension's status.
func (e *Extension) addProblem(p string) {
	e.mu.Lock()
	if !slices.Contains(e.problems, p) {
		e.problems = append(e.problems, p)
	}
	e.mu.Unlock()
	e.log.note("%s", p)
}

// --- config.changed -----------------------------------------------------

// configWatch sends config.changed notifications to one subscribed
// extension. It compares the plugin's config file with what it last sent
// from, on a kick (config.set in this process) and every configPoll.
type configWatch struct {
	e    *Extension
	kick chan struct{}

	mu sync.Mutex
	// keys are the keys subscribed to; nil means all. Guarded by mu.
	keys []string
	// last is the file's content when last compared. Guarded by mu.
	last map[string]string
}

// watchConfig subscribes the extension to changes of keys (nil: all).
// A second subscription replaces the key list.
func (e *Extension) watchConfig(keys []string) {
	e.mu.Lock()
	w := e.configWatch
	if w == nil {
		w = &configWatch{e: e, kick: make(chan struct{}, 1), last: readConfigMap(PluginConfigFile(e.plugin))}
		e.configWatch = w
	}
	e.mu.Unlock()
	w.mu.Lock()
	if len(keys) == 0 {
		w.keys = nil
	} else {
		w.keys = slices.Clone(keys)
	}
	w.mu.Unlock()
	if e.env.watchers.add(e.plugin.Dir, w) {
		go w.run()
	}
}

func readConfigMap(path string) map[string]string {
	f, err := config.Load(path)
	out := map[string]string{}
	if err != nil {
		return out
	}
	for _, k := range f.Keys() {
		out[k], _ = f.Get(k)
	}
	return out
}

// run compares until the extension stops.
func (w *configWatch) run() {
	defer w.e.env.watchers.remove(w.e.plugin.Dir, w)
	tick := time.NewTicker(configPoll)
	defer tick.Stop()
	path := PluginConfigFile(w.e.plugin)
	var lastStat os.FileInfo
	for {
		select {
		case <-w.e.life.Done():
			return
		case <-w.kick:
		case <-tick.C:
			info, err := os.Stat(path)
			if err == nil && lastStat != nil && info.ModTime().Equal(lastStat.ModTime()) && info.Size() == lastStat.Size() {
				continue
			}
			lastStat = info
		}
		w.compare(path)
	}
}

// compare reads the file and notifies each subscribed key whose value
// changed: {key, value} with value null for a removed key.
func (w *configWatch) compare(path string) {
	now := readConfigMap(path)
	w.mu.Lock()
	old, keys := w.last, w.keys
	w.last = now
	w.mu.Unlock()
	changed := map[string]bool{}
	for k, v := range now {
		if ov, ok := old[k]; !ok || ov != v {
			changed[k] = true
		}
	}
	for k := range old {
		if _, ok := now[k]; !ok {
			changed[k] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(changed)) {
		if keys != nil && !slices.Contains(keys, k) {
			continue
		}
		var value any
		if v, ok := now[k]; ok {
			value = v
		}
		w.e.notifyProcess(contract.NotifyConfigChanged, map[string]any{"key": k, "value": value})
	}
}

// notifyProcess sends a notification to the running process, if any.
func (e *Extension) notifyProcess(method string, params any) {
	e.mu.Lock()
	p := e.proc
	e.mu.Unlock()
	if p == nil {
		return
	}
	if err := p.conn.Notify(method, params); err != nil {
		e.log.note("%s not sent: %v", method, err)
	}
}

// configWatchers finds the watches of every extension of a plugin
// directory, so config.set by one kicks them all.
type configWatchers struct {
	mu    sync.Mutex
	byDir map[string][]*configWatch
}

// add registers w; it reports whether w is new (its loop must start).
func (c *configWatchers) add(dir string, w *configWatch) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byDir == nil {
		c.byDir = map[string][]*configWatch{}
	}
	if slices.Contains(c.byDir[dir], w) {
		return false
	}
	c.byDir[dir] = append(c.byDir[dir], w)
	return true
}

func (c *configWatchers) remove(dir string, w *configWatch) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byDir[dir] = slices.DeleteFunc(c.byDir[dir], func(x *configWatch) bool { return x == w })
}

// configChanged kicks the watches of dir: its config file was written.
func (h *hostEnv) configChanged(dir string) {
	h.watchers.mu.Lock()
	ws := slices.Clone(h.watchers.byDir[dir])
	h.watchers.mu.Unlock()
	for _, w := range ws {
		select {
		case w.kick <- struct{}{}:
		default:
		}
	}
}
