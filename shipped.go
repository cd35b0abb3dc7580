// Package synaps holds what ships inside the synaps binary besides code:
// the extension-authoring skill — the authoring guide, word for word — and
// the extension docs its links point to. internal/app writes them under
// $SYNAPS_BASE_DIR/shipped/ in the repository's own layout, so the guide's
// {baseDir}/../../../docs/extensions/… paths resolve there exactly as they
// do in a checkout.
package synaps

import "embed"

// SkillsDir is the directory of the shipped skills, relative to the
// repository root and to the shipped copy alike. It is three levels above
// each skill's files, as the guide's {baseDir}/../../../ links expect.
const SkillsDir = "builtin/skills"

// Shipped is builtin/skills/ and docs/extensions/ as they are in the
// repository.
//
//go:embed builtin/skills docs/extensions
var Shipped embed.FS
