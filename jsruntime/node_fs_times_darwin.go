package jsruntime

import (
	"os"
	"syscall"
)

// statTimesMs are a file's access, modification, change and birth times in ms.
func statTimesMs(fi os.FileInfo) (a, m, c, b float64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		t := float64(fi.ModTime().UnixNano()) / 1e6
		return t, t, t, t
	}
	ms := func(ts syscall.Timespec) float64 { return float64(ts.Nano()) / 1e6 }
	return ms(st.Atimespec), ms(st.Mtimespec), ms(st.Ctimespec), ms(st.Birthtimespec)
}
