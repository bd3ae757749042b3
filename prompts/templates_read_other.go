//go:build !unix

package prompts

import "os"

// readFileFast is os.ReadFile where raw system calls are not available;
// noFollow is approximated with an Lstat and prefix trims after reading.
func readFileFast(path string, noFollow, prefix bool) ([]byte, error) {
	if noFollow {
		st, err := os.Lstat(path)
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() {
			return nil, &pathError{Op: "read", Path: path, Err: errNotRegular}
		}
	}
	data, err := os.ReadFile(path)
	if err == nil && prefix {
		if k := frontmatterPrefix(data); k >= 0 {
			data = data[:k]
		}
	}
	return data, err
}
