package jsruntime

import "github.com/dop251/goja"

func loadTTY(r *Runtime) (goja.Value, error) {
	prim := r.vm.NewObject()
	_ = prim.Set("isatty", fdIsTerminal)
	_ = prim.Set("winsize", func(fd int) goja.Value {
		c, rows, ok := fdWinsize(fd)
		if !ok {
			return goja.Null()
		}
		return r.vm.NewArray(c, rows)
	})
	src, err := hostSource("tty")
	if err != nil {
		return nil, err
	}
	return r.evalCommonJS("node:tty", wrapModule, src, prim)
}
