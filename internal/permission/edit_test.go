package permission

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPolicyEditRules(t *testing.T) {
	p := New(Config{Mode: Default, WorkDir: "/w"})
	for _, k := range []struct{ kind, text string }{{"allow", "Bash(ls:*)"}, {"deny", "Bash(rm:*)"}, {"ask", "Bash(ls:*)"}} {
		r, err := ParseRule(k.text)
		if err != nil {
			t.Fatal(err)
		}
		if !p.AddRule(k.kind, r) {
			t.Fatalf("AddRule(%q) refused", k.kind)
		}
	}
	if p.AddRule("maybe", Rule{Text: "x"}) {
		t.Fatal("AddRule took an unknown kind")
	}
	if d := p.Decide(Call{Name: "bash", RuntimeName: "bash", Builtin: true, Input: []byte(`{"command":"rm -rf x"}`)}); d.Verdict != Deny {
		t.Fatalf("added deny rule not used: %+v", d)
	}
	removed := p.RemoveRule("Bash(ls:*)")
	var kinds []string
	for _, r := range removed {
		kinds = append(kinds, r.Kind)
	}
	if diff := cmp.Diff([]string{"ask", "allow"}, kinds); diff != "" {
		t.Fatalf("removed kinds (-want +got):\n%s", diff)
	}
	rs := p.Rules()
	if len(rs.Allow) != 0 || len(rs.Ask) != 0 || len(rs.Deny) != 1 {
		t.Fatalf("rules after remove: %+v", rs)
	}
	if got := p.RemoveRule("Bash(nothing)"); len(got) != 0 {
		t.Fatalf("removed %v for a rule that is not there", got)
	}
}
