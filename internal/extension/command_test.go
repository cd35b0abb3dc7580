package extension

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestInvokeCommandStreams: command.invoke hands on the command's own
// output events in order (another request id's are not its), task
// progress, and nothing after the first done; a plugin without a running
// extension is an error naming it.
func TestInvokeCommandStreams(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "cmds", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{CommandOutputs: 3})
	h := startHost(t, base, nil)
	var got []string
	err := h.InvokeCommand(context.Background(), "cmds", "models", []string{"list"}, func(ev CommandEvent) {
		got = append(got, ev.Kind+": "+strings.Join(ev.Lines(), "|"))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"text: line 1", "text: line 2", "text: line 3", "task: [task work] started", "task: [task work] done", "done: "}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	err = h.InvokeCommand(context.Background(), "nope", "x", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "the extension of plugin nope is not running") {
		t.Errorf("err = %v", err)
	}
}

// TestCommandOutputBudget: past the budget, events are dropped and one
// line says how many.
func TestCommandOutputBudget(t *testing.T) {
	base := t.TempDir()
	fakePlugin(t, base, "cmds", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{CommandOutputs: maxCommandEvents + 5})
	h := startHost(t, base, nil)
	n, last := 0, ""
	if err := h.InvokeCommand(context.Background(), "cmds", "flood", nil, func(ev CommandEvent) {
		n++
		last = ev.Content
	}); err != nil {
		t.Fatal(err)
	}
	// 1024 kept (the task pair and done counted among the dropped), then the notice.
	if n != maxCommandEvents+1 || !strings.Contains(last, fmt.Sprintf("(%d more output events of /cmds:flood were dropped", 5+3)) {
		t.Errorf("%d events, last %q", n, last)
	}
}

// BenchmarkCommandInvoke: one interactive command streaming 10 output
// events, to a Go extension.
func BenchmarkCommandInvoke(b *testing.B) {
	base := b.TempDir()
	fakePlugin(b, base, "cmds", map[string]any{"permissions": []string{"tools.register"}}, fakeSpec{CommandOutputs: 10})
	h := startHost(b, base, nil)
	ctx := context.Background()
	n := 0
	on := func(CommandEvent) { n++ }
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := h.InvokeCommand(ctx, "cmds", "x", nil, on); err != nil {
			b.Fatal(err)
		}
	}
}
