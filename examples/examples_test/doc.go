// Package examples holds no code: its tests (package examples_test) run
// every example extension in examples/extensions through
// `synaps extensions test` (conformance.Run) and through a real
// extension host, the way a session would, and run the examples' own test
// suites. bash-guard is built into its directory for the run and removed
// afterwards.
package examples
