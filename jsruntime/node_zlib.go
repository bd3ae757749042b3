package jsruntime

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"hash/crc32"
	"io"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
)

// zlibCodec compresses or decompresses one whole buffer in one of zlib's
// formats. Compressed bytes are valid for every reader but not identical
// to Node's (Go's deflate is not zlib's); decompression reads anything
// Node writes.
func zlibCodec(op string, data []byte, level int) ([]byte, error) {
	var out bytes.Buffer
	compress := func(w io.WriteCloser, err error) ([]byte, error) {
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
		if err := w.Close(); err != nil {
			return nil, err
		}
		return out.Bytes(), nil
	}
	switch op {
	case "gzip":
		w, err := gzip.NewWriterLevel(&out, level)
		if err == nil {
			w.OS = 3 // Unix, as Node writes it
		}
		return compress(w, err)
	case "deflate":
		return compress(zlib.NewWriterLevel(&out, level))
	case "deflateRaw":
		return compress(flate.NewWriter(&out, level))
	case "gunzip":
		// A wrong magic number is a header error however short the
		// input, as zlib reports it; Go would see an early end first.
		if len(data) >= 2 && (data[0] != 0x1f || data[1] != 0x8b) || len(data) == 1 && data[0] != 0x1f {
			return nil, gzip.ErrHeader
		}
		return readAllFrom(gzip.NewReader(bytes.NewReader(data)))
	case "inflate":
		if len(data) >= 2 && (data[0]&0x0f != 8 || (uint(data[0])<<8|uint(data[1]))%31 != 0) {
			return nil, zlib.ErrHeader
		}
		return readAllFrom(zlib.NewReader(bytes.NewReader(data)))
	case "inflateRaw":
		return readAllFrom(flate.NewReader(bytes.NewReader(data)), nil)
	case "unzip":
		if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
			return zlibCodec("gunzip", data, level)
		}
		return zlibCodec("inflate", data, level)
	}
	return nil, errors.New("unknown zlib operation " + op)
}

func readAllFrom[R io.ReadCloser](r R, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// zlibError gives a failed codec Node's message, errno and code.
func zlibError(vm *goja.Runtime, err error) *goja.Object {
	msg, errno, code := "invalid block type", -3, "Z_DATA_ERROR"
	switch {
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, zlib.ErrHeader):
		msg = "incorrect header check"
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, zlib.ErrChecksum):
		msg = "incorrect data check"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		msg, errno, code = "unexpected end of file", -5, "Z_BUF_ERROR"
	}
	e, nerr := vm.New(vm.Get("Error"), vm.ToValue(msg))
	if nerr != nil {
		e = vm.NewGoError(errors.New(msg))
	}
	_ = e.Set("errno", errno)
	_ = e.Set("code", code)
	return e
}

func loadZlib(r *Runtime) (goja.Value, error) {
	vm := r.vm
	prim := vm.NewObject()
	_ = prim.Set("sync", func(op string, data goja.Value, level int) goja.Value {
		out, err := zlibCodec(op, bytesOf(vm, data), level)
		if err != nil {
			panic(zlibError(vm, err))
		}
		return buffer.WrapBytes(vm, out)
	})
	// async runs the codec off the loop and calls cb(err, buffer) on it.
	_ = prim.Set("async", func(op string, data goja.Value, level int, cb goja.Callable) {
		in := append([]byte(nil), bytesOf(vm, data)...)
		done := r.loop.Reserve()
		go func() {
			out, err := zlibCodec(op, in, level)
			done(func(vm *goja.Runtime) {
				if err != nil {
					_, _ = cb(goja.Undefined(), zlibError(vm, err))
					return
				}
				_, _ = cb(goja.Undefined(), goja.Null(), buffer.WrapBytes(vm, out))
			})
		}()
	})
	_ = prim.Set("crc32", func(data goja.Value, prev uint32) uint32 {
		return crc32.Update(prev, crc32.IEEETable, bytesOf(vm, data))
	})
	src, err := hostSource("zlib")
	if err != nil {
		return nil, err
	}
	return r.evalCommonJS("node:zlib", wrapModule, src, prim)
}
