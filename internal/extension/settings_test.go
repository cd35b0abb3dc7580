package extension

import (
	"encoding/json"
	"testing"
)

// TestCommitEffect: a commit reply becomes the value written, as
// SynapsCLI reads it.
func TestCommitEffect(t *testing.T) {
	tests := []struct {
		reply, key, value string
		ok                bool
	}{
		{`{"ok":false,"value":"x"}`, "", "", false},
		{`{"value":"model:base"}`, "model", "base", true},
		{`{"ok":true,"value":"tiny"}`, "model", "tiny", true},
		{`{"value":3}`, "model", "3", true},
		{`"plain"`, "model", "plain", true},
		{`{"intent":{"kind":"select","config_key":"voice.model_path","model_path":"/m/base.bin"}}`, "model_path", "/m/base.bin", true},
		{`{"kind":"select","model_id":"large"}`, "model", "large", true},
		{`{"intent":{"kind":"download","model_id":"large"}}`, "", "", false},
	}
	for _, tc := range tests {
		k, v, ok := commitEffect(json.RawMessage(tc.reply), "model")
		if k != tc.key || v != tc.value || ok != tc.ok {
			t.Errorf("%s: %q %q %v, want %q %q %v", tc.reply, k, v, ok, tc.key, tc.value, tc.ok)
		}
	}
}

// TestDecodeRender: a render bare or wrapped; rows are required and each
// needs a label.
func TestDecodeRender(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		ok   bool
		rows int
		err  bool
	}{
		{`{"rows":[{"label":"a"},{"label":"b"}],"cursor":1}`, true, 2, false},
		{`{"render":{"rows":[{"label":"a"}]}}`, true, 1, false},
		{`{"committed":true}`, false, 0, false},
		{`{"rows":[{"marker":"*"}]}`, false, 0, true},
	} {
		st, ok, err := decodeRender(json.RawMessage(tc.raw))
		if ok != tc.ok || len(st.Rows) != tc.rows || (err != nil) != tc.err {
			t.Errorf("%s: ok %v rows %d err %v", tc.raw, ok, len(st.Rows), err)
		}
	}
}
