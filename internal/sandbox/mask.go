package sandbox

// A mask hides a credential store that lies inside a writable directory
// (the project is the home directory; a test's HOME inside its work
// directory), in the confined process's own mount namespace: an empty,
// read-only directory over a hidden directory, /dev/null (read-only) over
// a hidden file.
//
// Landlock alone cannot do it well. It only grants, so a writable
// directory that holds a hidden path would get its read rights child by
// child, for the children that existed when the rules were made: a file
// the process creates there afterwards could be written but not read back
// ("echo x > notes; cat notes" in ~ refused). With masks the directory is
// granted read and write whole, and the stores are simply not there.
type mask struct {
	// Path is the hidden path, resolved.
	Path string `json:"path"`
	// Dir: an empty directory covers it; otherwise /dev/null does.
	Dir bool `json:"dir,omitempty"`
	// Reveal are paths inside a hidden directory that stay readable
	// (~/.ssh/known_hosts, ~/.ssh/config): bind-mounted, read-only,
	// into the empty directory at the same place.
	Reveal []string `json:"reveal,omitempty"`
}
