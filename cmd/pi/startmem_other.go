//go:build !linux

package main

// heapHugePages is a no-op where pi does not know how to ask for huge
// pages.
func heapHugePages() {}
