package extension

// Everything synaps sends to an extension is bounded in nesting and size.
// An extension's JSON parser is not ours: Python's gives up (RecursionError)
// on a few thousand levels, and a guard that crashes on an input cannot
// guard it. The agent already refuses tool inputs deeper than 64 levels
// before any hook; these bounds hold for every request whatever its
// caller, with room for the envelope around a tool input.

import (
	"encoding/json"
	"fmt"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/tool"
)

// unsendableError says why a request was not sent. It is a fault of the
// request, not of the extension: the extension is never asked and stays
// as healthy as it was.
type unsendableError struct {
	problem string
}

func (e *unsendableError) Error() string {
	return e.problem + ", so it was not sent to the extension"
}

// withinSendBounds reports whether params keep both bounds; it builds no
// message, so the hook path can ask it for every link.
func withinSendBounds(params json.RawMessage) bool {
	return len(params) <= contract.MaxSendBytes && tool.NestingDepth(params, contract.MaxSendDepth) <= contract.MaxSendDepth
}

// checkSendable returns an *unsendableError when params break a bound.
func checkSendable(what string, params json.RawMessage) error {
	if len(params) > contract.MaxSendBytes {
		return &unsendableError{fmt.Sprintf("%s is %d bytes, more than the %d bytes synaps sends to an extension", what, len(params), contract.MaxSendBytes)}
	}
	if d := tool.NestingDepth(params, contract.MaxSendDepth); d > contract.MaxSendDepth {
		return &unsendableError{fmt.Sprintf("%s nests objects and arrays more than %d levels deep", what, contract.MaxSendDepth)}
	}
	return nil
}
