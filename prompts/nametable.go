package prompts

import "hash/maphash"

// NameTable finds the first of many resources to claim a name: an open
// addressing table of positions (4 bytes a slot) instead of a map of
// strings (a thousand skills' map is about 50 KiB of fresh heap at start,
// the table 8 KiB). The names stay with the caller, which looks them up by
// position.
type NameTable struct {
	slots []int32
	seed  maphash.Seed
}

// NewNameTable makes a table for up to n names.
func NewNameTable(n int) NameTable {
	size := 8
	for size < 2*n {
		size <<= 1
	}
	return NameTable{slots: make([]int32, size), seed: maphash.MakeSeed()}
}

// Claim returns the position that claimed name before, or records pos as
// its holder and returns -1. nameOf gives the name held at a position.
func (t *NameTable) Claim(name string, pos int, nameOf func(int) string) int {
	mask := uint64(len(t.slots) - 1)
	for h := maphash.String(t.seed, name) & mask; ; h = (h + 1) & mask {
		v := t.slots[h]
		if v == 0 {
			t.slots[h] = int32(pos + 1)
			return -1
		}
		if nameOf(int(v-1)) == name {
			return int(v - 1)
		}
	}
}
