package hook

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
)

// Decision is the verdict of a hook chain.
type Decision struct {
	// Blocked: the tool must not run (before_tool_call), with Reason as the
	// error result the model sees and BlockedBy the extension id.
	Blocked   bool
	Reason    string
	BlockedBy string
	// Input is the tool input after every modify; nil when unchanged.
	Input      json.RawMessage
	ModifiedBy []string
	// Output is the tool output after every replace; nil when unchanged.
	Output     *string
	ReplacedBy []string
	// Confirms are collected confirm requests; the user is asked once,
	// after the chain, if nothing blocked.
	Confirms []Confirm
	// Injects are collected inject contents, in chain order.
	Injects []Inject
	// Stopped: a link asked to end the user's turn here (the stop
	// action), with StopReason for the user and StoppedBy its id.
	Stopped               bool
	StopReason, StoppedBy string
	// Contexts are texts for the model after a tool's result, in chain
	// order (a result's "context").
	Contexts []Inject
	// AllowedBy is the link that granted the call its permission (see
	// Result.Grant), for the input that will run; "" when none did.
	AllowedBy string
	// Permissions are the permission changes links asked for with a
	// grant (Result.Permissions), in chain order, each with its link.
	Permissions []PermissionUpdate
}

// Confirm is one extension's request to ask the user.
type Confirm struct {
	Extension string
	Message   string
	// Defer: the asker deferred the call (Result.Defer).
	Defer bool
	// By names the asker in messages when it is not an extension (a
	// Claude command hook: Subject); "" means "extension <Extension>".
	By string
}

// Subject is how messages name the asker: "extension guard", or a
// Claude hook's own words.
func (c Confirm) Subject() string {
	if c.By != "" {
		return c.By
	}
	return "extension " + c.Extension
}

// Inject is context one extension adds.
type Inject struct {
	Extension string
	Content   string
}

// BlockedMessage is the error result text the model sees for a block by
// an extension.
func BlockedMessage(extID, reason string) string {
	return Blocked("extension "+extID, reason)
}

// blockedPrefix starts every block's text.
const blockedPrefix = "Tool call blocked by "

// Blocked is the error result text the model sees for a block by who
// ("extension guard", "hook of plugin cc-guard": Subject).
func Blocked(who, reason string) string {
	return blockedPrefix + who + ": " + reason
}

// BlockReason is a block's text without its "Tool call blocked by …: "
// frame, which is for the model: the reason alone, for the user.
func BlockReason(msg string) string {
	rest, ok := strings.CutPrefix(msg, blockedPrefix)
	if !ok {
		return msg
	}
	if _, reason, ok := strings.Cut(rest, ": "); ok {
		return reason
	}
	return msg
}

// Subjecter is a Link that is not an extension process and says what it
// is in messages (a Claude plugin's command hooks: "hook of plugin
// cc-guard"), where an extension is "extension <id>".
type Subjecter interface {
	Subject() string
}

// Subject is how messages name a link: its own words (Subjecter), or
// "extension <id>".
func Subject(l Link) string {
	if s, ok := l.(Subjecter); ok {
		return s.Subject()
	}
	return "extension " + l.ID()
}

// by is a Confirm's By for a link: "" for an extension.
func by(l Link) string {
	if s, ok := l.(Subjecter); ok {
		return s.Subject()
	}
	return ""
}

// Confirmer asks the user to approve a tool call. It returns true to run
// it. A nil Confirmer means no interactive user: confirms block.
type Confirmer interface {
	Confirm(ctx context.Context, tool string, messages []Confirm) bool
}

// withConfirms finishes a decision: it adds the pending confirms, in chain
// order (each handler's latest, about the input that will run), and names
// each rewriter once, in the order they first rewrote.
func (d Decision) withConfirms(confirms []*Confirm) Decision {
	if len(d.ModifiedBy) > 1 {
		d.ModifiedBy = dedupe(d.ModifiedBy)
	}
	for _, c := range confirms {
		if c != nil {
			d.Confirms = append(d.Confirms, *c)
		}
	}
	return d
}

func dedupe(ids []string) []string {
	var out []string
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}
