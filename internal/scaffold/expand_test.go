package scaffold

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"
	"text/template"

	"github.com/google/go-cmp/cmp"
)

// expand renders every scaffold template, for every shape of extension,
// exactly as text/template does (the engine they were written for; a
// test may link it, synaps may not — see expand's comment).
func TestExpandAgreesWithTextTemplate(t *testing.T) {
	names, err := fs.Glob(templates, "templates/*.tmpl")
	if err != nil || len(names) == 0 {
		t.Fatalf("templates: %v %v", names, err)
	}
	for _, lang := range Langs {
		for _, o := range []Options{
			{Name: "my-ext", Lang: lang, Tool: true},
			{Name: "my-ext", Lang: lang, Hooks: []string{"before_tool_call", "after_tool_call"}},
			{Name: "x2", Lang: lang, Tool: true, Hooks: []string{"before_message"}},
		} {
			data := templateData(o, "./"+o.Name)
			// What the templates saw before: Tool a bool, not a string.
			old := map[string]any{}
			for k, v := range data {
				old[k] = v
			}
			old["Tool"] = o.Tool
			for _, name := range names {
				src, _ := templates.ReadFile(name)
				var want bytes.Buffer
				if err := template.Must(template.New(name).Parse(string(src))).Execute(&want, old); err != nil {
					t.Fatal(err)
				}
				got, err := expand(name, src, data)
				if err != nil {
					t.Fatalf("%s %+v: %v", name, o, err)
				}
				if d := cmp.Diff(want.String(), string(got)); d != "" {
					t.Errorf("%s %+v (-text/template +expand):\n%s", name, o, d)
				}
			}
		}
	}
}

// A template that uses more than expand knows fails with the file, the
// line and what is wrong, instead of writing a broken extension.
func TestExpandErrors(t *testing.T) {
	data := map[string]string{"Name": "x", "Tool": ""}
	for _, tc := range []struct{ src, want string }{
		{"a\n{{.Nme}}", `t.tmpl:2: {{.Nme}}: not a value of the scaffold (have .Name .Tool)`},
		{"{{printf \"%q\" .Name}}", `t.tmpl:1: {{printf "%q" .Name}}: not a value of the scaffold`},
		{"{{if .Name}}\n{{if .Tool}}{{end}}{{end}}", "t.tmpl:2: {{if}} inside the {{if}} of line 1: not supported"},
		{"x\n{{if .Name}}", "t.tmpl:2: {{if}} without {{end}}"},
		{"{{end}}", "t.tmpl:1: {{end}} without {{if}}"},
		{"{{.Name", "t.tmpl:1: {{ without }}"},
	} {
		_, err := expand("t.tmpl", []byte(tc.src), data)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("expand(%q) = %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestExpand(t *testing.T) {
	data := map[string]string{"Name": "n", "Tool": "true", "Build": ""}
	for src, want := range map[string]string{
		"plain":                            "plain",
		"{{.Name}}-{{ .Name }}":            "n-n",
		"[{{if .Tool}}t{{.Name}}{{end}}]":  "[tn]",
		"[{{if .Build}}b{{.Name}}{{end}}]": "[]",
		"a\n{{if .Build}}\nx\n{{end}}\nb":  "a\n\nb",
	} {
		got, err := expand("t", []byte(src), data)
		if err != nil || string(got) != want {
			t.Errorf("expand(%q) = %q, %v; want %q", src, got, err, want)
		}
	}
}
