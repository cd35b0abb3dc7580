package extension

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecodeInitResult: initialize answers as published plugins write
// them decode; only a missing result and a protocol version synaps cannot
// speak fail, naming the field.
func TestDecodeInitResult(t *testing.T) {
	type want struct {
		err      string // substring; "" = decodes
		version  int    // 0 = absent
		tools    string // the capabilities.tools kept, "" = none
		warnings []string
	}
	tests := []struct {
		name     string
		raw      string
		manifest int
		want     want
	}{
		{"capabilities as an empty list", `{"protocol_version":1,"capabilities":[]}`, 1, want{version: 1}},
		{"capabilities absent", `{"protocol_version":1}`, 1, want{version: 1}},
		{"capabilities null", `{"protocol_version":1,"capabilities":null}`, 1, want{version: 1}},
		{"empty lists", `{"protocol_version":1,"capabilities":{"tools":[],"hooks":[],"providers":[],"capabilities":[]}}`, 1, want{version: 1}},
		{"extra keys everywhere", `{"protocol_version":1,"name":"x","version":"1","extension":{"a":1},"commands":[],"tasks":{},"settings_methods":["m"],
			"capabilities":{"tools":[{"name":"t","description":"d","input_schema":{"type":"object"},"extra":1}],"commands":[1],"hooks":null}}`, 1,
			want{version: 1, tools: `[{"name":"t","description":"d","input_schema":{"type":"object"},"extra":1}]`}},
		{"capabilities a non-empty list", `{"protocol_version":1,"capabilities":["tools"]}`, 1,
			want{version: 1, warnings: []string{"initialize result: capabilities is a list of 1 item, not an object; it is read as empty"}}},
		{"capabilities a string", `{"protocol_version":1,"capabilities":"all"}`, 1,
			want{version: 1, warnings: []string{"initialize result: capabilities is a string, not an object; it is read as empty"}}},
		{"no protocol_version", `{"capabilities":{}}`, 1, want{}},
		{"protocol 2 from a protocol 2 manifest", `{"protocol_version":2,"capabilities":{}}`, 2, want{version: 2}},
		{"protocol 1 from a protocol 2 manifest", `{"protocol_version":1}`, 2, want{version: 1}},
		{"protocol 2 from a protocol 1 manifest", `{"protocol_version":2}`, 1,
			want{err: `protocol_version is 2, but the manifest declares protocol 1; set "protocol_version": 2`}},
		{"protocol 3", `{"protocol_version":3}`, 2, want{err: "protocol_version is 3, but this synaps speaks extension protocols 1 and 2"}},
		{"protocol as text", `{"protocol_version":"one"}`, 1, want{err: `protocol_version: expected an integer, got "one"`}},
		{"null result", `null`, 1, want{err: "result: the extension answered null"}},
		{"missing result", ``, 1, want{err: "result: the extension answered null"}},
		{"result a list", `[]`, 1, want{err: "result: expected an object"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := DecodeInitResult(json.RawMessage(tt.raw), tt.manifest)
			if tt.want.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.want.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("DecodeInitResult: %v", err)
			}
			var got want
			if res.ProtocolVersion != nil {
				got.version = *res.ProtocolVersion
			}
			got.tools = string(res.Capabilities.Tools)
			got.warnings = res.Warnings
			if tt.want.tools != "" {
				var a, b any
				_ = json.Unmarshal([]byte(tt.want.tools), &a)
				_ = json.Unmarshal(res.Capabilities.Tools, &b)
				if diff := cmp.Diff(a, b); diff == "" {
					got.tools = tt.want.tools
				}
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckExtra(t *testing.T) {
	perms := map[string]bool{"audio.input": true}
	got := checkExtra(json.RawMessage(`[{"kind":"audio","name":"mic","permissions":["audio.input"]},{"kind":"audio","name":"speaker","permissions":["audio.output","audio.bogus"]},{"name":"x"}]`), perms)
	want := []string{
		`initialize result: capabilities.capabilities[1] (audio speaker) needs permission "audio.output", which extension.permissions does not grant`,
		`initialize result: capabilities.capabilities[1] (audio speaker) asks for unknown permission "audio.bogus"`,
		`initialize result: capabilities.capabilities[2] needs a kind and a name`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestOnUsageFromInitializeNeedsProtocol2: a hook declared in the
// initialize result obeys the same minimum protocol as a manifest one.
func TestOnUsageFromInitializeNeedsProtocol2(t *testing.T) {
	for _, v := range []int{1, 2} {
		t.Run(strconv.Itoa(v), func(t *testing.T) { onUsageFromInitialize(t, v) })
	}
}

func onUsageFromInitialize(t *testing.T, v int) {
	t.Helper()
	base := t.TempDir()
	fakePlugin(t, base, "meter", map[string]any{
		"permissions": []string{"privacy.llm_content"}, "protocol_version": v,
	}, fakeSpec{Init: json.RawMessage(`{"protocol_version":` + strconv.Itoa(v) + `,"capabilities":{"hooks":[{"name":"on_usage"}]}}`)})
	h := startHost(t, base, nil)
	st := statusOf(t, h, "meter")
	subscribed := slices.Contains(st.Hooks, "on_usage")
	if subscribed != (v == 2) {
		t.Errorf("protocol %d: hooks %v, warnings %v", v, st.Hooks, st.Warnings)
	}
	if v == 1 && !slices.ContainsFunc(st.Warnings, func(w string) bool {
		return strings.Contains(w, `hook "on_usage" needs extension protocol 2, but the manifest declares 1`)
	}) {
		t.Errorf("protocol 1: no warning in %v", st.Warnings)
	}
}
