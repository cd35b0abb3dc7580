package hook

import (
	"encoding/json"
	"testing"

	"github.com/synaps-cli/synaps/internal/contract"
)

// FuzzDecodeHookResult: any bytes an extension may answer with. The
// decoder never panics; an accepted result is well formed for its action
// (a modify always carries an object, a replace an output, an inject
// content, a block a reason), so the dispatcher never acts on half a result.
func FuzzDecodeHookResult(f *testing.F) {
	for _, s := range []string{
		`{}`, `null`, ``, `{"action":"continue"}`, `{"action":"allow"}`,
		`{"action":"block","reason":"no"}`, `{"action":"block"}`, `{"action":"deny","message":"m"}`,
		`{"action":"confirm","message":"sure?"}`, `{"action":"modify","input":{"command":"ls"}}`,
		`{"action":"modify","input":"ls"}`, `{"action":"replace","output":"x"}`,
		`{"action":"replace","output":[{"type":"text","text":"a"}]}`, `{"action":"inject","content":"ctx"}`,
		`{"action":"inject","content":""}`, `{"action":"explode"}`, `[]`, `"continue"`, `{"action":7}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodeResult(data)
		if err != nil {
			return
		}
		switch r.Action {
		case contract.ActionContinue:
		case contract.ActionBlock:
			if r.Reason == "" {
				t.Fatalf("block without reason from %q", data)
			}
		case contract.ActionConfirm:
			if r.Message == "" {
				t.Fatalf("confirm without message from %q", data)
			}
		case contract.ActionModify:
			var obj map[string]any
			if json.Unmarshal(r.Input, &obj) != nil || obj == nil {
				t.Fatalf("modify without object input from %q", data)
			}
		case contract.ActionReplace:
			if r.Output == nil {
				t.Fatalf("replace without output from %q", data)
			}
		case contract.ActionInject:
			if r.Content == "" {
				t.Fatalf("inject without content from %q", data)
			}
		default:
			t.Fatalf("unknown action %q accepted from %q", r.Action, data)
		}
	})
}
