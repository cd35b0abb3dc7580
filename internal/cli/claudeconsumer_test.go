package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// A consumer of Claude Code's `--output-format stream-json`, written from
// its documented message shapes (the Agent SDK's SDKMessage types), as a
// script that drives `claude -p` would read them. It reads synaps's
// output unchanged: lines whose type it does not know are skipped, as
// Claude's consumers do; lines it knows must have every field it reads,
// with the documented JSON type.

// claudeLine is the union of the lines a consumer reads.
type claudeLine struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	// system/init
	SessionID      *string          `json:"session_id"`
	Cwd            *string          `json:"cwd"`
	Model          *string          `json:"model"`
	Tools          *[]string        `json:"tools"`
	MCPServers     *[]any           `json:"mcp_servers"`
	PermissionMode *string          `json:"permissionMode"`
	UUID           *string          `json:"uuid"`
	Message        *json.RawMessage `json:"message"`
	// result
	IsError       *bool           `json:"is_error"`
	Result        *string         `json:"result"`
	NumTurns      *int            `json:"num_turns"`
	DurationMS    *int64          `json:"duration_ms"`
	DurationAPIMS *int64          `json:"duration_api_ms"`
	TotalCostUSD  *float64        `json:"total_cost_usd"`
	Usage         *claudeUsage    `json:"usage"`
	Denials       *[]claudeDenial `json:"permission_denials"`
}

type claudeUsage struct {
	InputTokens         *int `json:"input_tokens"`
	OutputTokens        *int `json:"output_tokens"`
	CacheCreationTokens *int `json:"cache_creation_input_tokens"`
	CacheReadTokens     *int `json:"cache_read_input_tokens"`
}

type claudeDenial struct {
	ToolName  string          `json:"tool_name"`
	ToolUseID string          `json:"tool_use_id"`
	ToolInput json.RawMessage `json:"tool_input"`
}

type claudeMessage struct {
	ID         *string       `json:"id"`
	Type       *string       `json:"type"`
	Role       string        `json:"role"`
	Model      *string       `json:"model"`
	StopReason *string       `json:"stop_reason"`
	Usage      *claudeUsage  `json:"usage"`
	Content    []claudeBlock `json:"content"`
}

type claudeBlock struct {
	Type      string           `json:"type"`
	Text      *string          `json:"text"`
	ID        *string          `json:"id"`
	Name      *string          `json:"name"`
	Input     *json.RawMessage `json:"input"`
	ToolUseID *string          `json:"tool_use_id"`
	Content   *json.RawMessage `json:"content"`
	IsError   *bool            `json:"is_error"`
}

// consumeClaudeStream reads a stream as a Claude consumer does and
// returns one summary line per line it knows, e.g.
// "assistant text,tool_use stop=tool_use", or the first problem.
func consumeClaudeStream(out []byte) ([]string, error) {
	var summary []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	n := 0
	for sc.Scan() {
		n++
		var l claudeLine
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		var keys map[string]json.RawMessage // presence of fields that may be null
		if err := dec.Decode(&l); err != nil || json.Unmarshal(sc.Bytes(), &keys) != nil {
			return nil, fmt.Errorf("line %d: not a JSON object in Claude's shapes: %v", n, err)
		}
		missing := func(what string) error { return fmt.Errorf("line %d (%s): no %s", n, l.Type, what) }
		switch l.Type {
		case "system":
			if l.Subtype != "init" {
				continue
			}
			switch {
			case l.SessionID == nil:
				return nil, missing("session_id")
			case l.Cwd == nil:
				return nil, missing("cwd")
			case l.Model == nil:
				return nil, missing("model")
			case l.Tools == nil:
				return nil, missing("tools")
			case l.MCPServers == nil:
				return nil, missing("mcp_servers")
			case l.PermissionMode == nil:
				return nil, missing("permissionMode")
			}
			summary = append(summary, fmt.Sprintf("system init tools=%s", strings.Join(*l.Tools, ",")))
		case "assistant", "user":
			if l.Message == nil || l.SessionID == nil {
				return nil, missing("message or session_id")
			}
			if _, ok := keys["parent_tool_use_id"]; !ok {
				return nil, missing("parent_tool_use_id")
			}
			var m claudeMessage
			if err := json.Unmarshal(*l.Message, &m); err != nil {
				return nil, fmt.Errorf("line %d: message: %v", n, err)
			}
			if m.Role != l.Type {
				return nil, fmt.Errorf("line %d: a %s line with a %q message", n, l.Type, m.Role)
			}
			var kinds []string
			for _, b := range m.Content {
				kinds = append(kinds, b.Type)
				var bad string
				switch b.Type {
				case "text":
					if b.Text == nil {
						bad = "text"
					}
				case "tool_use":
					if b.ID == nil || b.Name == nil || b.Input == nil {
						bad = "id, name or input"
					}
				case "tool_result":
					if b.ToolUseID == nil || b.Content == nil {
						bad = "tool_use_id or content"
					}
				}
				if bad != "" {
					return nil, fmt.Errorf("line %d: a %s block without %s", n, b.Type, bad)
				}
			}
			s := l.Type + " " + strings.Join(kinds, ",")
			if l.Type == "assistant" {
				if m.ID == nil || m.Type == nil || *m.Type != "message" || m.Model == nil || m.StopReason == nil || m.Usage == nil || m.Usage.InputTokens == nil || m.Usage.OutputTokens == nil {
					return nil, fmt.Errorf("line %d: assistant message lacks id, type \"message\", model, stop_reason or usage", n)
				}
				s += " stop=" + *m.StopReason
			}
			summary = append(summary, s)
		case "result":
			switch {
			case l.IsError == nil:
				return nil, missing("is_error")
			case l.NumTurns == nil:
				return nil, missing("num_turns")
			case l.DurationMS == nil || l.DurationAPIMS == nil:
				return nil, missing("duration_ms or duration_api_ms")
			case l.TotalCostUSD == nil:
				return nil, missing("total_cost_usd")
			case l.SessionID == nil:
				return nil, missing("session_id")
			case l.Usage == nil || l.Usage.InputTokens == nil || l.Usage.OutputTokens == nil || l.Usage.CacheReadTokens == nil || l.Usage.CacheCreationTokens == nil:
				return nil, missing("usage with input, output and cache token counts")
			case l.Denials == nil:
				return nil, missing("permission_denials")
			case l.Subtype == "success" && l.Result == nil:
				return nil, missing("result")
			}
			s := fmt.Sprintf("result %s is_error=%v turns=%d", l.Subtype, *l.IsError, *l.NumTurns)
			for _, d := range *l.Denials {
				s += " denied=" + d.ToolName
			}
			if l.Result != nil {
				s += " result=" + *l.Result
			}
			summary = append(summary, s)
		}
	}
	return summary, sc.Err()
}

// cmdClaudeConsume is `claude-consume FILE`: read FILE as a Claude
// stream-json consumer and print the summary, one line per known line.
func cmdClaudeConsume(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: claude-consume FILE")
	}
	summary, err := consumeClaudeStream([]byte(ts.ReadFile(args[0])))
	if err != nil {
		if neg {
			ts.Logf("as expected: %v", err)
			return
		}
		ts.Fatalf("claude-consume: %v", err)
	}
	if neg {
		ts.Fatalf("claude-consume: the stream was read without a problem")
	}
	fmt.Fprintln(ts.Stdout(), strings.Join(summary, "\n"))
}
