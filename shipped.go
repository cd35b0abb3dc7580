// Package synaps holds what ships inside the synaps binary besides code:
// the extension-authoring skill — the authoring guide, word for word — and
// the extension docs and the reference extension its links point to.
// internal/app writes them under $SYNAPS_BASE_DIR/shipped/ in the
// repository's own layout, so the guide's {baseDir}/../../../docs/… paths
// and its table of paths relative to the repository root resolve there
// exactly as they do in a checkout.
package synaps

import "embed"

// SkillsDir is the directory of the shipped skills, relative to the
// repository root and to the shipped copy alike. It is three levels above
// each skill's files, as the guide's {baseDir}/../../../ links expect.
const SkillsDir = "builtin/skills"

// Shipped is builtin/skills/, docs/extensions/ and the reference
// extension examples/extensions/hello-ext/ (with its .synaps-plugin/) as
// they are in the repository: the guide's table of paths names all of
// them, so a model reading the shipped skill finds each.
//
//go:embed builtin/skills docs/extensions all:examples/extensions/hello-ext
var Shipped embed.FS
