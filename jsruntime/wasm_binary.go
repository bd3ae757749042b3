package jsruntime

import (
	"errors"
	"fmt"
	"math"
)

// The JS API needs two things from a module's binary that wazero's public
// API does not give: every import and export in order with its kind (for
// Module.imports/exports and for linking globals and tables), and small
// modules written on the fly (a Memory or Global made by a constructor,
// and the glue that hands a JS import object's values to an instance).
// Both are plain walks of the binary format, kept here.

// Wasm external kinds, as the binary format numbers them.
const (
	wasmKindFunc   = 0
	wasmKindTable  = 1
	wasmKindMemory = 2
	wasmKindGlobal = 3
	wasmKindTag    = 4
)

var wasmKindNames = [...]string{"function", "table", "memory", "global", "tag"}

// wasmImport is one entry of the import section.
type wasmImport struct {
	module, name string
	kind         byte
	typeIndex    uint32 // function: its type
	valType      byte   // global: its value type; table: its element type
	mutable      bool   // global
	shared       bool   // memory
}

// wasmExport is one entry of the export section.
type wasmExport struct {
	name  string
	kind  byte
	index uint32
}

type wasmReader struct {
	b   []byte
	pos int
}

// errWasmTruncated is a module cut short. A constant type rather than an
// errors.New value keeps package init free of allocations.
type wasmTruncated struct{}

func (wasmTruncated) Error() string { return "unexpected end of module" }

var errWasmTruncated error = wasmTruncated{}

func (r *wasmReader) byte() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, errWasmTruncated
	}
	c := r.b[r.pos]
	r.pos++
	return c, nil
}

func (r *wasmReader) u32() (uint32, error) {
	var v uint64
	for shift := 0; shift < 35; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			if v > math.MaxUint32 {
				return 0, errors.New("LEB128 value out of range")
			}
			return uint32(v), nil
		}
	}
	return 0, errors.New("LEB128 value too long")
}

func (r *wasmReader) name() (string, error) {
	n, err := r.u32()
	if err != nil {
		return "", err
	}
	if int(n) > len(r.b)-r.pos {
		return "", errWasmTruncated
	}
	s := string(r.b[r.pos : r.pos+int(n)])
	r.pos += int(n)
	return s, nil
}

// limits reads a limits entry and reports whether it is shared.
func (r *wasmReader) limits() (shared bool, err error) {
	flags, err := r.byte()
	if err != nil {
		return false, err
	}
	if _, err := r.u32(); err != nil {
		return false, err
	}
	if flags&1 != 0 {
		if _, err := r.u32(); err != nil {
			return false, err
		}
	}
	return flags&2 != 0, nil
}

// parseWasmInterface reads the import and export sections of a module
// that wazero has already validated.
func parseWasmInterface(b []byte) (imports []wasmImport, exports []wasmExport, err error) {
	if len(b) < 8 {
		return nil, nil, errWasmTruncated
	}
	r := &wasmReader{b: b, pos: 8}
	for r.pos < len(b) {
		id, err := r.byte()
		if err != nil {
			return nil, nil, err
		}
		size, err := r.u32()
		if err != nil {
			return nil, nil, err
		}
		end := r.pos + int(size)
		if end > len(b) {
			return nil, nil, errWasmTruncated
		}
		switch id {
		case 2:
			n, err := r.u32()
			if err != nil {
				return nil, nil, err
			}
			for range n {
				var im wasmImport
				if im.module, err = r.name(); err != nil {
					return nil, nil, err
				}
				if im.name, err = r.name(); err != nil {
					return nil, nil, err
				}
				if im.kind, err = r.byte(); err != nil {
					return nil, nil, err
				}
				switch im.kind {
				case wasmKindFunc, wasmKindTag:
					if im.kind == wasmKindTag {
						if _, err = r.byte(); err != nil {
							return nil, nil, err
						}
					}
					im.typeIndex, err = r.u32()
				case wasmKindTable:
					if im.valType, err = r.byte(); err == nil {
						_, err = r.limits()
					}
				case wasmKindMemory:
					im.shared, err = r.limits()
				case wasmKindGlobal:
					var mut byte
					if im.valType, err = r.byte(); err == nil {
						mut, err = r.byte()
						im.mutable = mut == 1
					}
				default:
					err = fmt.Errorf("unknown import kind %d", im.kind)
				}
				if err != nil {
					return nil, nil, err
				}
				imports = append(imports, im)
			}
		case 7:
			n, err := r.u32()
			if err != nil {
				return nil, nil, err
			}
			for range n {
				var ex wasmExport
				if ex.name, err = r.name(); err != nil {
					return nil, nil, err
				}
				if ex.kind, err = r.byte(); err != nil {
					return nil, nil, err
				}
				if ex.index, err = r.u32(); err != nil {
					return nil, nil, err
				}
				exports = append(exports, ex)
			}
		}
		r.pos = end
	}
	return imports, exports, nil
}

// wasmWriter assembles a module section by section.
type wasmWriter struct{ out []byte }

func newWasmWriter() *wasmWriter {
	return &wasmWriter{out: []byte{0, 'a', 's', 'm', 1, 0, 0, 0}}
}

func appendU32(b []byte, v uint32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

func appendS64(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func appendName(b []byte, s string) []byte {
	return append(appendU32(b, uint32(len(s))), s...)
}

// section appends a section with count entries whose bytes are body.
func (w *wasmWriter) section(id byte, count int, body []byte) {
	if count == 0 {
		return
	}
	payload := appendU32(nil, uint32(count))
	payload = append(payload, body...)
	w.out = append(w.out, id)
	w.out = appendU32(w.out, uint32(len(payload)))
	w.out = append(w.out, payload...)
}

// appendLimits writes a limits entry; max < 0 means none.
func appendLimits(b []byte, min uint32, max int64, shared bool) []byte {
	flags := byte(0)
	if max >= 0 {
		flags |= 1
	}
	if shared {
		flags |= 2
	}
	b = appendU32(append(b, flags), min)
	if max >= 0 {
		b = appendU32(b, uint32(max))
	}
	return b
}

// memoryModuleWasm is a module defining one memory, exported as "m": the
// home of a memory made by new WebAssembly.Memory.
func memoryModuleWasm(initial uint32, maximum int64) []byte {
	w := newWasmWriter()
	w.section(5, 1, appendLimits(nil, initial, maximum, false))
	w.section(7, 1, append(appendName(nil, "m"), wasmKindMemory, 0))
	return w.out
}

// globalModuleWasm is a module defining one global of type vt with the
// initial bits init, exported as "g": the home of new WebAssembly.Global.
func globalModuleWasm(vt byte, mutable bool, init uint64) []byte {
	body := []byte{vt, 0}
	if mutable {
		body[1] = 1
	}
	switch vt {
	case 0x7f: // i32
		body = appendS64(append(body, 0x41), int64(int32(uint32(init))))
	case 0x7e: // i64
		body = appendS64(append(body, 0x42), int64(init))
	case 0x7d: // f32
		u := uint32(init)
		body = append(body, 0x43, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
	case 0x7c: // f64
		body = append(body, 0x44)
		for i := range 8 {
			body = append(body, byte(init>>(8*i)))
		}
	default: // a reference type: only null can be written as a constant
		body = append(body, 0xd0, vt)
	}
	body = append(body, 0x0b)
	w := newWasmWriter()
	w.section(6, 1, body)
	w.section(7, 1, append(appendName(nil, "g"), wasmKindGlobal, 0))
	return w.out
}

// glueItem is one value the glue module re-exports: it imports it from
// module src, field field, and exports it as name.
type glueItem struct {
	name, src, field string
	kind             byte
	params, results  []byte // function
	valType          byte   // global, table
	mutable, shared  bool
}

// glueModuleWasm re-exports items imported from other modules under the
// names one import module of an instance asks for.
func glueModuleWasm(items []glueItem) []byte {
	w := newWasmWriter()
	var types, imports, exports []byte
	nTypes := 0
	index := map[byte]uint32{}
	for _, it := range items {
		imports = appendName(appendName(imports, it.src), it.field)
		imports = append(imports, it.kind)
		switch it.kind {
		case wasmKindFunc:
			types = append(types, 0x60)
			types = append(appendU32(types, uint32(len(it.params))), it.params...)
			types = append(appendU32(types, uint32(len(it.results))), it.results...)
			imports = appendU32(imports, uint32(nTypes))
			nTypes++
		case wasmKindTable:
			imports = appendLimits(append(imports, it.valType), 0, -1, false)
		case wasmKindMemory:
			max := int64(-1)
			if it.shared {
				max = 65536
			}
			imports = appendLimits(imports, 0, max, it.shared)
		case wasmKindGlobal:
			mut := byte(0)
			if it.mutable {
				mut = 1
			}
			imports = append(imports, it.valType, mut)
		}
		exports = append(appendName(exports, it.name), it.kind)
		exports = appendU32(exports, index[it.kind])
		index[it.kind]++
	}
	w.section(1, nTypes, types)
	w.section(2, len(items), imports)
	w.section(7, len(items), exports)
	return w.out
}
