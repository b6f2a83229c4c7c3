//go:build !linux

package arcade

import "net"

// directWriter is Linux's alone (see directwrite_linux.go); elsewhere net's
// Write is used.
func directWriter(net.Conn) func([]byte) (int, error) { return nil }
