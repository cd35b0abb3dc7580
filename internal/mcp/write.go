package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrServerExists: the file already has a server of that name. AddServer
// does not replace it (as claude mcp add does not): a typo in a name must
// not overwrite a working entry.
var ErrServerExists = errors.New("already configured")

// AddServer writes server name with the given JSON entry into file
// ({"mcpServers": {…}}, synaps's own shape), keeping every other key of
// the file as it was. The entry is checked first, so a bad one is refused
// with the reason; a name the file already has is refused with
// ErrServerExists.
func AddServer(file, name string, entry json.RawMessage) error {
	if name == "" {
		return errors.New("the server needs a name")
	}
	wrapped, _ := json.Marshal(map[string]json.RawMessage{name: entry})
	servers, err := ParseFile(Source{File: "the server entry"}, wrapped, "")
	if err != nil {
		return fmt.Errorf("server %s: %w", name, err)
	}
	if len(servers) != 1 {
		return fmt.Errorf("server %s: the entry must be one JSON object", name)
	}
	if servers[0].Err != nil {
		return servers[0].Err
	}
	top, servMap, err := readForWrite(file)
	if err != nil {
		return err
	}
	if _, ok := servMap[name]; ok {
		return fmt.Errorf("MCP server %s is %w in %s; remove it first (synaps mcp remove %s) to add it anew", name, ErrServerExists, file, name)
	}
	var compact json.RawMessage
	if compact, err = compactJSON(entry); err != nil {
		return err
	}
	servMap[name] = compact
	return writeBack(file, top, servMap)
}

// RemoveServer deletes server name from file; it reports whether the file
// had it.
func RemoveServer(file, name string) (bool, error) {
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	top, servMap, err := readForWrite(file)
	if err != nil {
		return false, err
	}
	if _, ok := servMap[name]; !ok {
		return false, nil
	}
	delete(servMap, name)
	return true, writeBack(file, top, servMap)
}

func compactJSON(raw json.RawMessage) (json.RawMessage, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return marshal(v, "")
}

// marshal is json.Marshal without HTML escaping: a command's "&" and ">"
// stay readable in the file.
func marshal(v any, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// readForWrite reads file's top-level object and its mcpServers (a flat
// file is read as servers).
func readForWrite(file string) (top, servers map[string]json.RawMessage, err error) {
	top, servers = map[string]json.RawMessage{}, map[string]json.RawMessage{}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return top, servers, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if _, err := ParseFile(Source{File: file}, data, ""); err != nil {
		return nil, nil, fmt.Errorf("%w; synaps does not rewrite a file it cannot read", err)
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	if raw, ok := top["mcpServers"]; ok {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return nil, nil, fmt.Errorf("%s: mcpServers: %w", file, err)
		}
		return top, servers, nil
	}
	// A flat map: its keys are servers; it becomes the wrapped shape.
	servers, top = top, map[string]json.RawMessage{}
	return top, servers, nil
}

func writeBack(file string, top, servers map[string]json.RawMessage) error {
	raw, err := marshal(servers, "")
	if err != nil {
		return err
	}
	top["mcpServers"] = raw
	data, err := marshal(top, "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}
