package builtin

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ignoreCases are the examples of git's gitignore documentation (PATTERN
// FORMAT) and the edge cases the walker relies on: each file lists its
// patterns in order, then paths (relative to the work tree root; a
// trailing "/" marks a directory) and whether they are ignored.
var ignoreCases = []struct {
	name     string
	domain   string // directory of the ignore file, "" for the root
	patterns []string
	paths    map[string]bool
}{
	{name: "name at any depth", patterns: []string{"*.log"}, paths: map[string]bool{
		"a.log": true, "x/y/a.log": true, "a.txt": false, "logs/": false, "x.log/": true, "x.log/inner.txt": true}},
	{name: "trailing slash: directories only", patterns: []string{"frotz/"}, paths: map[string]bool{
		"frotz/": true, "a/frotz/": true, "frotz": false, "a/frotz": false, "frotz/file": true}},
	{name: "leading slash anchors", patterns: []string{"/foo"}, paths: map[string]bool{
		"foo": true, "foo/": true, "a/foo": false, "foo/bar": true}},
	{name: "middle slash anchors", patterns: []string{"doc/frotz/"}, paths: map[string]bool{
		"doc/frotz/": true, "a/doc/frotz/": false, "doc/frotz": false, "doc/frotz/x": true}},
	{name: "leading double star", patterns: []string{"**/foo"}, paths: map[string]bool{
		"foo": true, "a/foo": true, "a/b/foo/": true, "a/b/nofoo": false}},
	{name: "double star then two names", patterns: []string{"**/foo/bar"}, paths: map[string]bool{
		"foo/bar": true, "x/foo/bar": true, "x/foo/baz": false}},
	{name: "trailing double star", patterns: []string{"abc/**"}, paths: map[string]bool{
		"abc/x": true, "abc/x/y": true, "abc/": true, "x/abc/y": false}},
	{name: "middle double star", patterns: []string{"a/**/b"}, paths: map[string]bool{
		"a/b": true, "a/x/b": true, "a/x/y/b": true, "a/x/c": false, "b": false}},
	{name: "double star inside a name is no wildcard", patterns: []string{"a/x**/b"}, paths: map[string]bool{
		"a/xy/b": false}},
	{name: "negation re-includes", patterns: []string{"*.txt", "!keep.txt"}, paths: map[string]bool{
		"a.txt": true, "keep.txt": false, "d/keep.txt": false}},
	{name: "later pattern wins", patterns: []string{"!keep.txt", "*.txt"}, paths: map[string]bool{
		"keep.txt": true}},
	{name: "character class and question mark", patterns: []string{"file[0-9].?"}, paths: map[string]bool{
		"file1.c": true, "filex.c": false, "file1.cc": false}},
	{name: "trailing spaces trimmed unless escaped", patterns: []string{"a.txt  ", "b\\ "}, paths: map[string]bool{
		"a.txt": true, "b ": true, "b": false}},
	{name: "bad pattern matches nothing", patterns: []string{"[", "x/["}, paths: map[string]bool{
		"[": false, "x/[": false}},
	{name: "patterns of a subdirectory's file", domain: "sub", patterns: []string{"*.o", "/top"}, paths: map[string]bool{
		"sub/a.o": true, "sub/deep/a.o": true, "a.o": false, "sub/top": true, "sub/x/top": false, "sub/": false}},
}

func TestIgnorePatterns(t *testing.T) {
	for _, tc := range ignoreCases {
		t.Run(tc.name, func(t *testing.T) {
			var domain []string
			if tc.domain != "" {
				domain = strings.Split(tc.domain, "/")
			}
			var ps []*ignorePattern
			for _, line := range tc.patterns {
				ps = append(ps, parseIgnorePattern(line, domain))
			}
			got := map[string]bool{}
			for p := range tc.paths {
				isDir := strings.HasSuffix(p, "/")
				got[p] = ignored(ps, strings.Split(strings.TrimSuffix(p, "/"), "/"), isDir)
			}
			if d := cmp.Diff(tc.paths, got); d != "" {
				t.Errorf("ignored (-want +got):\n%s", d)
			}
		})
	}
}
