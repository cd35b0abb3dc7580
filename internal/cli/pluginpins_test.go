package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConfirmUpdate(t *testing.T) {
	changes := []string{"+ permission tools.intercept"}
	tests := []struct {
		name          string
		terminal, yes bool
		input         string
		wantApply     bool
		wantErr       string
		wantOut       string
	}{
		{"--yes", false, true, "", true, "", ""},
		{"terminal, y", true, false, "y\n", true, "", "apply this update? [y/N] "},
		{"terminal, YES", true, false, "YES\n", true, "", "apply this update? [y/N] "},
		{"terminal, enter declines", true, false, "\n", false, "", "apply this update? [y/N] not updated; watch stays as it was\n"},
		{"terminal, end of input declines", true, false, "", false, "", "apply this update? [y/N] not updated; watch stays as it was\n"},
		{"no terminal refuses, naming the change", false, false, "y\n", false,
			"not updated: the update changes what watch may do (+ permission tools.intercept); run it on a terminal to be asked, or pass --yes to accept", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			apply, err := confirmUpdate(Stdio{In: strings.NewReader(tc.input), Out: &out}, tc.terminal, tc.yes, "watch", changes)
			gotErr := ""
			if ee, ok := err.(exitError); ok {
				gotErr = ee.msg
			} else if err != nil {
				gotErr = err.Error()
			}
			got := []any{apply, gotErr, out.String()}
			if diff := cmp.Diff([]any{tc.wantApply, tc.wantErr, tc.wantOut}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
