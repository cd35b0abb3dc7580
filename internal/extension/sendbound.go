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

// checkSendable returns an *unsendableError when params break a bound.
func checkSendable(what string, params json.RawMessage) error {
	if len(params) > MaxSendBytes {
		return &unsendableError{fmt.Sprintf("%s is %d bytes, more than the %d bytes synaps sends to an extension", what, len(params), MaxSendBytes)}
	}
	if d := nestingDepth(params, MaxSendDepth); d > MaxSendDepth {
		return &unsendableError{fmt.Sprintf("%s nests objects and arrays more than %d levels deep", what, MaxSendDepth)}
	}
	return nil
}

// nestingDepth returns how deeply raw nests objects and arrays, stopping
// early once it exceeds limit. Brackets inside strings do not count.
func nestingDepth(raw []byte, limit int) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range raw {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > deepest {
				deepest = depth
				if deepest > limit {
					return deepest
				}
			}
		case '}', ']':
			depth--
		}
	}
	return deepest
}
