//go:build !linux

package sandbox

func detect() Features { return Features{} }
