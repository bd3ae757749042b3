package cpuprofile

import (
	"os"
	"runtime/pprof"
	"strconv"
	"time"
)

// PI_CPUPROFILE=<file> writes a CPU profile of the process's first
// PI_CPUPROFILE_MS milliseconds (default 1000) to <file>. It exists to
// profile start-up in a fresh process, where first-use costs (page faults,
// heap growth, cold code) dominate and an in-process benchmark cannot see
// them. The profile stops on a timer because run ends in os.Exit, which
// skips deferred calls.
func init() {
	path := os.Getenv("PI_CPUPROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		return
	}
	if pprof.StartCPUProfile(f) != nil {
		_ = f.Close()
		return
	}
	ms, err := strconv.Atoi(os.Getenv("PI_CPUPROFILE_MS"))
	if err != nil || ms <= 0 {
		ms = 1000
	}
	time.AfterFunc(time.Duration(ms)*time.Millisecond, func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	})
}
