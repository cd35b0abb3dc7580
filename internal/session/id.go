package session

import (
	"fmt"
	"strconv"
)

// maxIDLen bounds a session id (or the start of one): NewID's are 20
// bytes; the room is for ids from elsewhere (a UUID is 36).
const maxIDLen = 128

// IDShape says what a session id looks like, for the messages that
// refuse one.
const IDShape = "an id looks like 20261203-102010-ab3c: letters, digits, '-', '_' and '.', starting with a letter or digit, at most 128 of them (`synaps sessions list` shows the ids)"

// CheckID reports whether ref can name a session (a whole id or the
// start of one) before it becomes part of a file name: the session file,
// its lock and its index entry are all named after the id, so "../x",
// "/etc/passwd", "a/b" or a NUL would read and append to files outside
// the sessions directory. Every place that takes an id from outside —
// the command line, ACP's session/load, /resume — goes through here (by
// way of Resolve and Open, and at the CLI before anything runs). The
// error quotes ref (a NUL or an escape shows as \x00, \x1b) and says what
// an id looks like.
func CheckID(ref string) error {
	ok := ref != "" && len(ref) <= maxIDLen
	for i := 0; ok && i < len(ref); i++ {
		c := ref[i]
		alnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		ok = alnum || i > 0 && (c == '-' || c == '_' || c == '.')
	}
	if ok {
		return nil
	}
	shown := ref
	if len(shown) > maxIDLen {
		shown = shown[:maxIDLen] + "…"
	}
	return &IDError{Ref: ref, msg: fmt.Sprintf("%s is not a session id: %s", strconv.Quote(shown), IDShape)}
}

// IDError is CheckID's error: a value that cannot be a session id. A
// command line maps it to a usage error.
type IDError struct {
	Ref string
	msg string
}

func (e *IDError) Error() string { return e.msg }
