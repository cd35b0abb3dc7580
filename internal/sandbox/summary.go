package sandbox

import (
	"path/filepath"
	"strings"
)

// PluginSummary says in words what the processes of plugin id (in dir,
// its manifest's sandbox section d, nil when none) may do under the
// settings c: its policy's kind, then what it reads, writes and reaches.
// `synaps sandbox status`, `extensions info` and `extensions validate`
// print it. Nothing is created: the plugin need not be installed.
func PluginSummary(c Config, baseDir, project, id, dir string, d *Declared, getenv func(string) string) []string {
	if !c.Plugins {
		return []string{"policy: none — sandbox.plugins = off in the synaps config runs it as you"}
	}
	e := Env{Project: project, Home: Home(getenv), Temp: getenv("TMPDIR"), Getenv: getenv}
	if e.Temp == "" {
		e.Temp = "/tmp"
	}
	data := filepath.Join(baseDir, "plugin-data", id)
	p := PluginPolicy(e, PluginSpec{ID: id, Dir: dir, DataDir: data, TempDir: filepath.Join(data, "tmp"), Declared: d}, c)
	var out []string
	switch p.Kind {
	case "default":
		out = append(out,
			"policy: default — the manifest declares no sandbox section",
			"read: everywhere but the credential stores (~/.ssh, ~/.aws, ~/.gnupg, …), synaps's config and the other plugins' data and config",
			"write: the project ("+project+"), its data directory ("+data+"), the temp directory and the build caches")
	default:
		kind := "policy: declared — the manifest's sandbox section"
		if p.Kind == "strict" {
			kind = "policy: strict — the manifest declares no sandbox section and sandbox.default = strict"
			d = &Declared{}
		}
		read := "its directory (" + dir + "), the system's libraries and interpreters"
		if len(d.Read) > 0 {
			read += ", " + strings.Join(expand(e, d.Read), ", ")
		}
		write := "its data directory (" + data + ", with a private temp directory)"
		if len(d.Write) > 0 {
			write += ", " + strings.Join(expand(e, d.Write), ", ")
		}
		out = append(out, kind, "read: "+read, "write: "+write)
		// A declared path inside what every plugin's policy hides
		// (~/.ssh in sandbox.read) grants nothing; listed as read
		// alone, it said the plugin reads the keys.
		var hidden []string
		for _, path := range expand(e, append(append([]string(nil), d.Read...), d.Write...)) {
			if real := realPath(path); under(real, p.Hidden) && !under(real, p.Reveal) {
				hidden = append(hidden, path)
			}
		}
		if len(hidden) > 0 {
			out = append(out, "hidden still: "+strings.Join(hidden, ", ")+" (credential stores, synaps's config and the other plugins' data and config stay hidden whatever the manifest declares)")
		}
	}
	for _, l := range p.Describe() {
		if strings.HasPrefix(l, "network:") {
			out = append(out, l)
		}
	}
	return out
}
