package plugin

import "testing"

func TestClosedPolicyIsFoundLeniently(t *testing.T) {
	for text, want := range map[string]bool{
		`"failure_policy": "closed"`:                           true,
		`"failure_policy":"Closed"`:                            true,
		`"Failure-Policy" : " CLOSED "`:                        true,
		`"failure_policy": closed,`:                            true,
		`"failurepolicy": "closed"`:                            true,
		`"failure_policy": "open"`:                             false,
		`"failure_policy": "closedish"`:                        false,
		`"description": "set failure_policy: closed to block"`: false,
	} {
		if got := closedPolicy().MatchString(text); got != want {
			t.Errorf("%s: found = %v, want %v", text, got, want)
		}
	}
}
