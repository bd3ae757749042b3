//go:build !linux

package startmem

// heapHugePages is a no-op where pi does not know how to ask for huge
// pages.
func heapHugePages() {}
