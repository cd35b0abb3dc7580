package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type fakeTool struct{ spec Spec }

func (f fakeTool) Spec() Spec { return f.spec }
func (f fakeTool) Run(context.Context, json.RawMessage) (Result, error) {
	return Result{Output: f.spec.RuntimeName}, nil
}

func TestSanitizeName(t *testing.T) {
	long := strings.Repeat("a", 70)
	for _, tc := range []struct{ in, want string }{
		{"hello-ext:hello", "hello-ext_hello"},
		{"bash", "bash"},
		{"my.plugin:do it", "my_plugin_do_it"},
		{"ünï:x", "_n__x"},
		{long, long[:64]},
	} {
		if got := SanitizeName(tc.in); got != tc.want {
			t.Errorf("SanitizeName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRegistryNamesAndShadowing(t *testing.T) {
	r := NewRegistry()
	add := func(runtime, source string) string {
		t.Helper()
		s, err := r.Add(fakeTool{Spec{RuntimeName: runtime, Source: source}})
		if err != nil {
			t.Fatal(err)
		}
		return s.Name
	}
	got := []string{
		add("bash", "builtin"),
		add("hello-ext_hello", "builtin"),
		add("hello-ext:hello", "extension:hello-ext"),
		add("hello-ext.hello", "extension:other"),
		add("bash:", "extension:bash"),
	}
	want := []string{"bash", "hello-ext_hello", "hello-ext_hello_2", "hello-ext_hello_3", "bash_"}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("names (-want +got):\n%s", d)
	}
	if _, err := r.Add(fakeTool{Spec{RuntimeName: "bash"}}); err == nil {
		t.Fatal("duplicate runtime name accepted")
	}
	tl, spec, ok := r.Lookup("hello-ext:hello")
	if !ok || spec.Name != "hello-ext_hello_2" {
		t.Fatalf("Lookup by runtime name = %v %v", spec, ok)
	}
	if res, _ := tl.Run(context.Background(), nil); res.Output != "hello-ext:hello" {
		t.Fatalf("wrong tool: %q", res.Output)
	}
	if _, s, _ := r.Lookup("hello-ext_hello"); s.Source != "builtin" {
		t.Fatal("built-in was shadowed")
	}
	r.Remove("extension:hello-ext")
	if _, _, ok := r.Lookup("hello-ext_hello_2"); ok {
		t.Fatal("Remove left the tool")
	}
	if d := cmp.Diff([]string{"bash", "bash_", "hello-ext_hello", "hello-ext_hello_3"}, r.Names()); d != "" {
		t.Fatalf("Names after remove (-want +got):\n%s", d)
	}
}

func TestUniqueNameStaysWithinLimit(t *testing.T) {
	base := strings.Repeat("x", 64)
	got := uniqueName(base, func(n string) bool { return n == base })
	if len(got) != 64 || !strings.HasSuffix(got, "_2") {
		t.Fatalf("uniqueName = %q (len %d)", got, len(got))
	}
}

// TestReplace: a source's tools are swapped for a new set in one step;
// other sources' tools stay, and a tool that cannot be added says why.
func TestReplace(t *testing.T) {
	r := NewRegistry()
	mk := func(name, source string) Tool { return fakeTool{Spec{RuntimeName: name, Source: source}} }
	r.Add(mk("bash", "builtin"))
	r.Add(mk("mcp__s__a", "mcp:s"))
	r.Add(mk("mcp__s__b", "mcp:s"))
	specs, errs := r.Replace("mcp:s", []Tool{mk("mcp__s__b", "mcp:s"), mk("mcp__s__c", "mcp:s"), mk("bash", "mcp:s")})
	if errs[0] != nil || errs[1] != nil || errs[2] == nil || specs[1].Name != "mcp__s__c" {
		t.Errorf("specs %+v, errs %v", specs, errs)
	}
	if got := strings.Join(r.Names(), ","); got != "bash,mcp__s__b,mcp__s__c" {
		t.Errorf("names %s", got)
	}
}

// Swap replaces a tool's spec in place: same model-facing name and
// order, the new description; a runtime name not there is added.
func TestRegistrySwap(t *testing.T) {
	r := NewRegistry()
	for _, n := range []string{"a", "load_skill", "z"} {
		if _, err := r.Add(fakeTool{Spec{RuntimeName: n, Description: "old"}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Swap(fakeTool{Spec{RuntimeName: "load_skill", Description: "new"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Swap(fakeTool{Spec{RuntimeName: "fresh", Description: "new"}}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range r.Specs() {
		got = append(got, s.Name+":"+s.Description)
	}
	if diff := cmp.Diff([]string{"a:old", "load_skill:new", "z:old", "fresh:new"}, got); diff != "" {
		t.Errorf("specs (-want +got):\n%s", diff)
	}
}
