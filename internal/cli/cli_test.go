package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"version"}, Stdio{Out: &out, Err: &errb})
	if code != 0 || !strings.HasPrefix(out.String(), "synaps "+Version) {
		t.Fatalf("code %d out %q err %q", code, out.String(), errb.String())
	}
}

func TestUnknownCommandFails(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"bogus"}, Stdio{Out: &out, Err: &errb}); code == 0 || !strings.Contains(errb.String(), "bogus") {
		t.Fatalf("code %d err %q", code, errb.String())
	}
}
