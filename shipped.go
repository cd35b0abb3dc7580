// Package synaps holds what ships inside the synaps binary besides code:
// the extension-authoring skill and the extension docs its links point to.
// internal/app writes them under $SYNAPS_BASE_DIR/shipped/ so the skill's
// {baseDir}/../../docs/extensions/… paths resolve to real files the model
// can read.
package synaps

import "embed"

// Shipped is skills/ and docs/extensions/ as they are in the repository.
//
//go:embed skills docs/extensions
var Shipped embed.FS
