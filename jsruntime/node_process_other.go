//go:build !unix

package jsruntime

// installProcessExtras adds nothing where there are no POSIX signals or
// resource figures; the prelude's process stays as it is.
func (r *Runtime) installProcessExtras() {}
