//go:build !linux

package engine

import "unsafe"

func mapHuge(int) ([]byte, unsafe.Pointer) { return nil, nil }

func unmap([]byte) {}
