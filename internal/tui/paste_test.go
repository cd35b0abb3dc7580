package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPasteText: a short paste goes into the input as it is; a long one
// as a placeholder, numbered when another paste of as many lines already
// has its name; expandPastes gives the text back.
func TestPasteText(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`+"\n")
	m := h.m
	long := func(tag string, n int) string {
		var l []string
		for i := 0; i < n; i++ {
			l = append(l, fmt.Sprintf("%s %d", tag, i))
		}
		return strings.Join(l, "\n")
	}
	m.pasteText("short\r\npaste")
	m.input.InsertString(" ")
	a, b := long("a", 20), long("b", 20)
	m.pasteText(a + "\n")
	m.input.InsertString(" ")
	m.pasteText(b)
	m.input.InsertString(" ")
	m.pasteText(a + "\n") // the same text again: the same placeholder
	want := "short\npaste [Pasted text +20 lines] [Pasted text #2 +20 lines] [Pasted text +20 lines]"
	if d := cmp.Diff(want, m.input.Value()); d != "" {
		t.Fatalf("input (-want +got):\n%s", d)
	}
	if d := cmp.Diff("short\npaste "+a+"\n "+b+" "+a+"\n", m.expandPastes(m.input.Value())); d != "" {
		t.Errorf("expanded (-want +got):\n%s", d)
	}
}
