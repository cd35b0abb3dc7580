package tool

import (
	"strconv"
	"strings"
)

// MaxNameLen is the longest model-facing tool name the providers accept.
const MaxNameLen = 64

// SanitizeName maps a runtime name to the model-facing alphabet: every
// character outside [A-Za-z0-9_-] becomes '_' ("hello-ext:hello" →
// "hello-ext_hello"), cut to MaxNameLen bytes.
func SanitizeName(runtimeName string) string {
	var b strings.Builder
	b.Grow(len(runtimeName))
	for _, r := range runtimeName {
		if b.Len() >= MaxNameLen {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// uniqueName returns base, or base with the first free suffix _2, _3 …,
// keeping the result within MaxNameLen.
func uniqueName(base string, taken func(string) bool) string {
	if !taken(base) {
		return base
	}
	for i := 2; ; i++ {
		suffix := "_" + strconv.Itoa(i)
		cand := base
		if len(cand)+len(suffix) > MaxNameLen {
			cand = cand[:MaxNameLen-len(suffix)]
		}
		cand += suffix
		if !taken(cand) {
			return cand
		}
	}
}
