package extension

// The initialize cache. A start used to wait for every extension's
// initialize answer: a Python extension costs some 16 ms of CPU to
// start, so start-up grew with every plugin installed. The answer of an
// extension that declares no provider is kept, keyed by everything that
// could change it, and the next start registers its tools and hook
// places from the cache instead of waiting for it:
//
//   - an extension that registers tools and guards tool calls
//     (before_tool_call, after_tool_call), and nothing else, is not even
//     spawned: its process starts at the first call of one of its tools
//     (Extension.current), or at the first tool call it must judge, which
//     starts every other deferred guard with it, in parallel, so a chain
//     of guards is not started one after another;
//   - one that hooks the session's or a message's events, which every
//     session fires, is spawned at once, beside the rest of the start.
//
// Either way a hook waits for the process it needs (link.AwaitStart),
// outside the hook's deadline, and a guard that fails to start then is
// failed as at a session's start, so a fail-closed one blocks the call.
// A process whose answer differs from the cached one replaces it, in the
// cache and in the session (redeclare). An extension that brings a
// provider is never cached: the session's models are chosen at start.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/treesum"
)

// InitCacheEnv set to 0 (or false, no, off) turns the initialize cache
// off: every extension is spawned at start, as before the cache.
const InitCacheEnv = "SYNAPS_EXTENSIONS_INIT_CACHE"

// maxCacheEntries bounds the plugin tree a fingerprint walks: a plugin
// past it is never deferred (nothing is cached for it).
const maxCacheEntries = 20000

// InitCacheDir is where the cached initialize answers live, one file a
// plugin id.
func InitCacheDir(baseDir string) string {
	return filepath.Join(baseDir, "extensions", "init-cache")
}

// ClearInitCache removes every cached initialize answer (`synaps
// extensions cache clear`) and reports how many there were.
func ClearInitCache(baseDir string) (int, error) {
	dir := InitCacheDir(baseDir)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("cannot read the initialize cache %s: %w", dir, err)
	}
	n := 0
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".json") {
			n++
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return 0, fmt.Errorf("cannot remove the initialize cache %s: %w", dir, err)
	}
	return n, nil
}

// initEntry is one cached answer.
type initEntry struct {
	// Key is initKey's digest of what the answer was given for.
	Key    string          `json:"key"`
	Result json.RawMessage `json:"result"`
}

// cacheOn reports whether the initialize cache is in use.
func (h *hostEnv) cacheOn() bool {
	if !h.initCache {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(h.getenv(InitCacheEnv))) {
	case "0", "false", "no", "off":
		return false
	}
	return true
}

// toolHooksOnly reports whether every subscription is to a tool call's
// hook, which fires only when the model calls a tool.
func toolHooksOnly(subs []hook.Subscription) bool {
	for _, s := range subs {
		if s.Hook != contract.HookBeforeToolCall && s.Hook != contract.HookAfterToolCall {
			return false
		}
	}
	return true
}

// noProvider reports whether an initialize answer declares no provider
// (a model provider is asked for at start).
func noProvider(res *InitResult) bool { return hook.IsNull(res.Capabilities.Providers) }

// initKey digests everything an initialize answer may depend on: synaps's
// version and protocol, the plugin's id and directory, the fingerprint of
// its files (treesum.Fingerprint: any write moves it), the launch command
// and the binary it resolves to (a Python upgraded in place changes its
// size or times), the process's environment and its resolved config.
// "" when something cannot be measured: then nothing is cached.
func (e *Extension) initKey() string {
	if plugin.CheckID(e.ID()) != nil {
		return "" // its id could not name a file of the cache
	}
	m := e.plugin.Manifest.Extension
	env := childEnv(e.env.getenv, e.plugin, e.env.baseDir)
	argv, _, err := m.Argv(envLookup(env))
	if err != nil || len(argv) == 0 {
		return ""
	}
	bin, err := resolveCommand(argv[0], e.plugin.Dir)
	if err != nil {
		return ""
	}
	binInfo, err := os.Stat(bin)
	if err != nil {
		return ""
	}
	fp, err := treesum.Fingerprint(e.plugin.Dir, maxCacheEntries)
	if err != nil {
		return ""
	}
	cfg, err := json.Marshal(e.config)
	if err != nil {
		return ""
	}
	h := sha256.New()
	for _, part := range []string{
		e.env.version, fmt.Sprint(contract.ProtocolVersion, m.ProtocolVersion),
		e.plugin.ID, e.plugin.Dir, fp,
		strings.Join(argv, "\x01"), bin, fmt.Sprint(binInfo.Size(), binInfo.ModTime().UnixNano(), binInfo.Mode()),
		strings.Join(env, "\x01"), string(cfg),
	} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (e *Extension) cacheFile() string {
	return filepath.Join(InitCacheDir(e.env.baseDir), e.ID()+".json")
}

// cachedInit is the cached answer for key, or nil.
func (e *Extension) cachedInit(key string) *InitResult {
	if key == "" {
		return nil
	}
	data, err := os.ReadFile(e.cacheFile())
	if err != nil {
		return nil
	}
	var ent initEntry
	if json.Unmarshal(data, &ent) != nil || ent.Key != key {
		return nil
	}
	res, err := DecodeInitResult(ent.Result, e.plugin.Manifest.Extension.ProtocolVersion)
	if err != nil || !noProvider(res) {
		return nil
	}
	return res
}

// storeInit keeps res for key when a start can be served by it (it
// declares no provider), and drops a stale entry otherwise. A write that
// fails costs only the next start's time, so it is a log note.
func (e *Extension) storeInit(key string, res *InitResult) {
	if key == "" {
		return
	}
	path := e.cacheFile()
	if !noProvider(res) || len(res.Raw) == 0 {
		os.Remove(path)
		return
	}
	if old, err := os.ReadFile(path); err == nil {
		var ent initEntry
		if json.Unmarshal(old, &ent) == nil && ent.Key == key && sameAnswer(ent.Result, res.Raw) {
			return
		}
	}
	data, _ := json.Marshal(initEntry{Key: key, Result: res.Raw})
	err := os.MkdirAll(filepath.Dir(path), 0o700)
	if err == nil {
		err = config.ReplaceFile(path, data, 0o600) // a reader never sees half an entry
	}
	if err != nil {
		e.log.note("initialize cache: %v", err)
	}
}

// sameAnswer reports whether two initialize answers are the same JSON
// text once put as the cache writes it. The cache keeps an answer as
// json.Marshal puts a RawMessage (compacted, with <, > and & escaped),
// while an extension may answer with spaces (Python's json.dumps does):
// compared byte for byte, every such extension's answer "changed" at
// every start.
func sameAnswer(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	na, errA := json.Marshal(a)
	nb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(na, nb)
}

// redeclare makes res, the answer of a process started from a cached
// answer that it no longer gives, what the extension declares: its tools
// and subscriptions are replaced, the host registers them anew (the
// model sees them on its next request) and rebuilds the hook chain, and
// the cache keeps res. A provider it declares now is for the next start:
// a session's providers are fixed when it opens.
func (e *Extension) redeclare(res *InitResult) {
	d := e.declare(res)
	e.mu.Lock()
	e.tools, e.subs = d.tools, d.subs
	e.problems = append(e.problems, d.problems...)
	e.mu.Unlock()
	for _, pr := range d.problems {
		e.log.note("%s", pr)
	}
	e.log.note("its initialize answer differs from the cached one: its tools and hooks are now those it declares, and the cache keeps this answer")
	if d.providers != nil {
		e.log.note("it declares a provider now, which the session's next start takes")
	}
	e.storeInit(e.cacheKey, res)
	if e.env.redeclared != nil {
		e.env.redeclared(e)
	}
}

// dropInit removes the extension's cache entry (its deferred start
// failed: the next start spawns it at once and says why).
func (e *Extension) dropInit() { os.Remove(e.cacheFile()) }

// firstLaunch begins the process of an extension started from the cache
// and waits for that first launch to end, or ctx; a restart after a
// crash is not waited for here (a call waits for it within its own
// deadline).
func (e *Extension) firstLaunch(ctx context.Context) {
	e.mu.Lock()
	e.beginDeferredLocked()
	wait := e.restarting
	if e.gen > 0 {
		wait = nil
	}
	e.mu.Unlock()
	if wait != nil {
		select {
		case <-wait:
		case <-ctx.Done():
		}
	}
}

// undeclared waits for the first launch of an extension started from the
// cache and says why name, a tool of the cached answer, is not sent: the
// answer the process gave declares no such tool (redeclare took it from
// the registry, but the model asked for it from the list it had). ""
// when the tool is declared, or nothing is known yet (a start that
// failed is the call's to report).
func (e *Extension) undeclared(ctx context.Context, name string) string {
	if !e.firstLaunchPending() {
		return ""
	}
	e.firstLaunch(ctx)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.gen == 0 {
		return ""
	}
	now := make([]string, 0, len(e.tools))
	for _, d := range e.tools {
		if d.Name == name {
			return ""
		}
		now = append(now, d.Name)
	}
	list := "none"
	if len(now) > 0 {
		list = strings.Join(now, ", ")
	}
	return fmt.Sprintf("extension %s no longer declares tool %s: its initialize answer changed since the session took it from the cache; the tools it declares now: %s", e.ID(), name, list)
}

// firstLaunchPending reports whether the process of an extension started
// from the cache has yet to be spawned or to answer its first initialize.
func (e *Extension) firstLaunchPending() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.gen == 0 && (e.deferred || e.restarting != nil) && e.state == StateLoaded
}

// startDeferredGuards starts the process of every deferred extension
// that hooks tool calls, without waiting.
func (h *Host) startDeferredGuards() {
	h.mu.Lock()
	exts := h.exts
	h.mu.Unlock()
	for _, e := range exts {
		if _, subs := e.declared(); e.started() && len(subs) > 0 && e.isDeferred() {
			e.beginDeferred()
		}
	}
}
