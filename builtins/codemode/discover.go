package codemode

import (
	"github.com/dop251/goja"
)

// resolved returns an already fulfilled promise of v.
func (r *run) resolved(v any) goja.Value {
	p, resolve, _ := r.vm.NewPromise()
	_ = resolve(v)
	return r.vm.ToValue(p)
}

// searchTools(query, { limit?, namespace? }) ranks the callable tools.
func (r *run) searchTools(query string, opts goja.Value) goja.Value {
	limit := 0
	ns := ""
	if opts == nil {
		opts = goja.Undefined()
	}
	if o, ok := opts.Export().(map[string]any); ok {
		switch l := o["limit"].(type) {
		case int64:
			limit = int(l)
		case float64:
			limit = int(l)
		}
		ns, _ = o["namespace"].(string)
	}
	var cands []callable
	for _, c := range r.tools {
		if ns == "" || (c.entry != nil && matchesNamespace(c.entry.Namespace, ns)) {
			cands = append(cands, c)
		}
	}
	docs := make([]searchDoc, len(cands))
	for i, c := range cands {
		docs[i] = docOf(c.tool.Info().Name, c.tool.Info().Description, c.entry)
	}
	out := r.vm.NewArray()
	for i, idx := range rank(docs, query, limit) {
		c := cands[idx]
		o := r.vm.NewObject()
		_ = o.Set("name", c.tool.Info().Name)
		_ = o.Set("description", describe(c.tool.Info(), c.entry))
		_ = out.Set(itoa(i), o)
	}
	return r.resolved(out)
}

// docOf is a tool's searchable text: its name, its namespace's name and
// description, and its own description.
func docOf(name, description string, e *Entry) searchDoc {
	text := name + " " + description
	if e != nil && e.Namespace != nil {
		text += " " + e.Namespace.Name + " " + e.Namespace.Description
	}
	return searchDoc{name: name, text: text}
}

// describeTool(name) resolves to the description and declaration of a
// tool (by tool name or script identifier), or undefined.
func (r *run) describeTool(name string) goja.Value {
	for _, c := range r.tools {
		if c.tool.Info().Name == name || c.ident == name {
			return r.resolved(describe(c.tool.Info(), c.entry))
		}
	}
	return r.resolved(goja.Undefined())
}

// describeNamespace(name) resolves to { name, description?,
// instructions?, tools } or undefined.
func (r *run) describeNamespace(name string) goja.Value {
	var found *Namespace
	var tools []string
	for _, c := range r.tools {
		if c.entry != nil && matchesNamespace(c.entry.Namespace, name) {
			if found == nil {
				found = c.entry.Namespace
			}
			tools = append(tools, c.tool.Info().Name)
		}
	}
	if found == nil {
		return r.resolved(goja.Undefined())
	}
	o := r.vm.NewObject()
	_ = o.Set("name", found.Name)
	if found.Description != "" {
		_ = o.Set("description", found.Description)
	}
	if found.Instructions != "" {
		_ = o.Set("instructions", found.Instructions)
	}
	_ = o.Set("tools", tools)
	return r.resolved(o)
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
