//go:build !linux

package rpc

import "os"

// TakeOverStdout returns the process's stdout as the protocol stream and
// points os.Stdout at stderr so that Go code printing to os.Stdout cannot
// corrupt it. (On Linux, descriptor 1 itself is redirected as well.)
func TakeOverStdout() (*os.File, error) {
	real := os.Stdout
	os.Stdout = os.Stderr
	return real, nil
}
