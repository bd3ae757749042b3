package builtins

import "syscall"

// mmapFlags maps a file privately and faults its pages in up front: grep
// reads every byte, so populating at once saves a fault per page.
const mmapFlags = syscall.MAP_PRIVATE | syscall.MAP_POPULATE
