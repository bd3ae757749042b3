//go:build unix

package jsruntime

import (
	"os"
	"syscall"

	"github.com/dop251/goja"
)

// setUnixStat fills a Stats object's inode fields from the stat(2) result;
// it reports false when fi carries none.
func setUnixStat(o *goja.Object, fi os.FileInfo) bool {
	st, _ := fi.Sys().(*syscall.Stat_t)
	if st == nil {
		return false
	}
	_ = o.Set("dev", st.Dev)
	_ = o.Set("mode", uint32(st.Mode))
	_ = o.Set("nlink", st.Nlink)
	_ = o.Set("uid", st.Uid)
	_ = o.Set("gid", st.Gid)
	_ = o.Set("rdev", st.Rdev)
	_ = o.Set("blksize", st.Blksize)
	_ = o.Set("ino", st.Ino)
	_ = o.Set("size", fi.Size())
	_ = o.Set("blocks", st.Blocks)
	return true
}
