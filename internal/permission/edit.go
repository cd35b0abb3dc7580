package permission

// Editing the rules of a running session (/permissions allow|ask|deny
// RULE, /permissions remove RULE): the change holds at once, for the
// next call the policy judges.

// AddRule adds r to the kind's list ("allow", "ask" or "deny"); false
// for any other kind.
func (p *Policy) AddRule(kind string, r Rule) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch kind {
	case "allow":
		p.rules.Allow = append(p.rules.Allow, r)
	case "ask":
		p.rules.Ask = append(p.rules.Ask, r)
	case "deny":
		p.rules.Deny = append(p.rules.Deny, r)
	default:
		return false
	}
	return true
}

// RemoveRule takes every rule written as text out of every list and
// returns them, each with its kind, so the caller can take them out of
// the files they came from.
func (p *Policy) RemoveRule(text string) (removed []KindRule) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, k := range []struct {
		kind string
		list *[]Rule
	}{{"deny", &p.rules.Deny}, {"ask", &p.rules.Ask}, {"allow", &p.rules.Allow}} {
		kept := (*k.list)[:0:0]
		for _, r := range *k.list {
			if r.Text == text {
				removed = append(removed, KindRule{Kind: k.kind, Rule: r})
				continue
			}
			kept = append(kept, r)
		}
		*k.list = kept
	}
	return removed
}

// KindRule is a rule with the list it is in.
type KindRule struct {
	Kind string
	Rule Rule
}
