package jsruntime

import (
	"os"

	"github.com/dop251/goja"
)

// setUnixStat reports false on Windows: there is no stat(2) result, and
// the caller fills mode and size from fi.
func setUnixStat(*goja.Object, os.FileInfo) bool { return false }
