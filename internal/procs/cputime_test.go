package procs

import (
	"crypto/sha256"
	"testing"
)

// CPUTime counts this process's work: it grows while the test computes.
func TestCPUTimeGrowsWithWork(t *testing.T) {
	u0, s0, err := CPUTime()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(nil)
	for u, s := u0, s0; u+s == u0+s0; u, s, _ = CPUTime() {
		for range 10000 {
			sum = sha256.Sum256(sum[:])
		}
	}
	if u, s, _ := CPUTime(); u < u0 || s < s0 {
		t.Errorf("CPUTime went back: user %v -> %v, system %v -> %v", u0, u, s0, s)
	}
}
