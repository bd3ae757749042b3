//go:build !unix

package prompts

import "os"

// readFileFast is os.ReadFile where raw system calls are not available;
// noFollow is approximated with an Lstat.
func readFileFast(path string, noFollow bool) ([]byte, error) {
	if noFollow {
		st, err := os.Lstat(path)
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() {
			return nil, &pathError{Op: "read", Path: path, Err: errNotRegular}
		}
	}
	return os.ReadFile(path)
}
