package jsruntime

import (
	"context"
	"fmt"

	"github.com/dop251/goja"
)

// generations is what every generation of one runtime shares. The
// reference runs all its extension generations in one Node process: a
// session replacement calls the cached factories again (module state
// survives), a reload imports the modules afresh (module state starts
// over), and globalThis and the timers of older generations live on
// throughout. One goja VM per process gives the same: a generation is a
// new pi API with its own registrations over the same VM and loop.
type generations struct {
	// sources are the extensions Load loaded, deduplicated, in order.
	sources []Source
	// factories is the module cache: each source's default export, by
	// path. Only the loop goroutine touches it.
	factories map[string]goja.Callable
}

// NextGeneration loads the extensions again into the runtime's VM with a
// new API (host): each factory runs again with a fresh pi object. With
// reload false the modules come from the module cache, as for the
// reference's session replacement; with reload true the bundles are
// rebuilt from the files and evaluated again, as for its reload. The
// result is a view of the same VM and loop holding the new generation's
// extensions; the receiver stays usable (its timers keep running), and
// closing either closes the VM of both.
func (r *Runtime) NextGeneration(ctx context.Context, host Host, reload bool) (*Runtime, []LoadError, error) {
	return r.NextGenerationOf(ctx, host, reload, nil)
}

// NextGenerationOf is NextGeneration over sources, the extensions
// discovered again (nil keeps the last list), as the reference's reload and
// session replacement discover them anew: a source the module cache lacks
// (one added since) is bundled and evaluated, one no longer listed is left
// out, and the rest come from the cache unless reload is set.
func (r *Runtime) NextGenerationOf(ctx context.Context, host Host, reload bool, sources []Source) (*Runtime, []LoadError, error) {
	if sources != nil {
		// The same file listed twice loads once, at its first position,
		// as Load does.
		seen := map[string]bool{}
		uniq := make([]Source, 0, len(sources))
		for _, s := range sources {
			if !seen[s.Path] {
				seen[s.Path] = true
				uniq = append(uniq, s)
			}
		}
		r.shared.sources = uniq
	}
	g := &Runtime{
		vm: r.vm, loop: r.loop, opts: r.opts, stderr: r.stderr, modules: r.modules, loaded: r.loaded,
		requireFn: r.requireFn, host: r.host, shared: r.shared,
	}
	g.opts.Host = host
	if host.Setup != nil {
		if err := g.loop.Do(context.WithoutCancel(ctx), func(*goja.Runtime) error { return g.withGlobalRequire(func() error { return host.Setup(g) }) }); err != nil {
			return nil, nil, fmt.Errorf("jsruntime: setting up a new generation: %w", err)
		}
	}
	sources = r.shared.sources
	// A module missing from the cache (its last import failed) is
	// imported again, as the reference does on a cache miss.
	cached := make([]bool, len(sources))
	if !reload {
		_ = g.loop.Do(context.WithoutCancel(ctx), func(*goja.Runtime) error {
			for i, s := range sources {
				cached[i] = r.shared.factories[s.Path] != nil
			}
			return nil
		})
	}
	var entries []string
	for i, s := range sources {
		if !cached[i] {
			entries = append(entries, s.Path)
		}
	}
	compiled := map[string]CompileResult{}
	if len(entries) > 0 {
		for i, c := range NewCompiler(r.opts.AgentDir).CompileAll(ctx, entries) {
			compiled[entries[i]] = c
		}
	}
	if reload {
		// The module cache is cleared only once the new bundles exist.
		_ = g.loop.Do(context.WithoutCancel(ctx), func(*goja.Runtime) error {
			clear(r.shared.factories)
			return nil
		})
	}
	var loadErrs []LoadError
	for i, s := range sources {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		var ext *Extension
		var lerr *LoadError
		if !cached[i] {
			res := compiled[s.Path]
			if res.Err != nil {
				loadErrs = append(loadErrs, compileLoadError(s, res.Err))
				continue
			}
			ext, lerr = g.evaluate(ctx, s, res.Bundle)
		} else {
			ext, lerr = g.runFactory(ctx, s, func() (goja.Callable, error) {
				return g.shared.factories[s.Path], nil
			})
		}
		if lerr != nil {
			loadErrs = append(loadErrs, *lerr)
			continue
		}
		g.mu.Lock()
		g.extensions = append(g.extensions, ext)
		g.mu.Unlock()
	}
	loadErrs = append(loadErrs, detectConflicts(g.Extensions())...)
	return g, loadErrs, nil
}
