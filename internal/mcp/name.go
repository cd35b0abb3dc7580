package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// maxToolName is the longest model-facing tool name providers accept.
const maxToolName = 64

// ToolName is Claude Code's model-facing name of an MCP tool,
// mcp__<server>__<tool>, with every character outside [A-Za-z0-9_-]
// turned into '_'. A name over 64 characters is cut and ends in a short
// hash of the real server and tool names, so two long names stay apart.
func ToolName(server, tool string) string {
	n := "mcp__" + sanitize(server) + "__" + sanitize(tool)
	if len(n) <= maxToolName {
		return n
	}
	return hashed(n, server, tool)
}

// hashed cuts n to fit with "_" and an 8-hex hash of server and tool.
func hashed(n, server, tool string) string {
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	h := hex.EncodeToString(sum[:4])
	if len(n) > maxToolName-len(h)-1 {
		n = n[:maxToolName-len(h)-1]
	}
	return n + "_" + h
}

// namer hands out unique tool names: a name another (server, tool) pair
// already holds gets the hash suffix.
type namer struct {
	// owner maps a model-facing name to the server+"\x00"+tool it names.
	owner map[string]string
}

func (n *namer) name(server, tool string) string {
	if n.owner == nil {
		n.owner = map[string]string{}
	}
	key := server + "\x00" + tool
	name := ToolName(server, tool)
	if o, taken := n.owner[name]; taken && o != key {
		name = hashed(name, server, tool)
	}
	n.owner[name] = key
	return name
}

// release forgets the names of server (it is being refreshed or closed).
func (n *namer) release(server string) {
	for name, o := range n.owner {
		if strings.HasPrefix(o, server+"\x00") {
			delete(n.owner, name)
		}
	}
}

func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}
