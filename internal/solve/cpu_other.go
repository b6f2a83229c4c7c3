//go:build !linux

package solve

import "time"

// Elsewhere no per-deal CPU is measured; the report leaves it out.
func threadCPU() (time.Duration, bool)  { return 0, false }
func processCPU() (time.Duration, bool) { return 0, false }
