package startmem

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// hugeHeapBytes is how much heap is prepared for huge pages: more than a
// start with a handful of extensions uses (~6 MB), and free to reserve,
// since untouched memory costs nothing.
const hugeHeapBytes = 16 << 20

// madvHugepage is MADV_HUGEPAGE, absent from package syscall's constants.
const madvHugepage = 14

// heapHugePages makes the heap's next megabytes eligible for transparent
// huge pages when the kernel has them in "madvise" mode (the default of
// many distributions): one fault then maps 2 MiB instead of 4 KiB. The Go
// runtime maps heap memory without that advice, so pi grows the heap by one
// large allocation, advises its range and frees it again; the runtime hands
// out freed pages lowest address first, so the allocations of the start
// land in the advised range. PI_START_HUGEPAGES=0 turns it off.
func heapHugePages() {
	if os.Getenv("PI_START_HUGEPAGES") == "0" || !thpAdvised() {
		return
	}
	b := make([]byte, hugeHeapBytes)
	const huge = 2 << 20
	beg := uintptr(unsafe.Pointer(&b[0])) &^ (huge - 1)
	end := (uintptr(unsafe.Pointer(&b[0])) + hugeHeapBytes + huge - 1) &^ (huge - 1)
	// An error (no THP support, a part not mapped) leaves the heap as it
	// was, which is only slower.
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, beg, end-beg, madvHugepage)
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
}

// thpAdvised reports whether transparent huge pages are available on
// request ("madvise"); with "always" the heap has them already, with
// "never" advice is pointless.
func thpAdvised() bool {
	data, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return false
	}
	s := string(data)
	for i := 0; i+len("[madvise]") <= len(s); i++ {
		if s[i:i+len("[madvise]")] == "[madvise]" {
			return true
		}
	}
	return false
}
