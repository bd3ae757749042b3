package editor

import "slices"

// AsyncProvider is a Provider whose suggestions take time (an
// extension's provider runs on the JavaScript loop). SuggestAsync must
// return at once and call done exactly once, from any goroutine, with
// the answer or nil. The editor ignores answers for a state the user has
// already left (text or cursor changed, list closed, a newer request);
// its Suggest method is not called.
type AsyncProvider interface {
	Provider
	SuggestAsync(r Request, done func(*Suggestions))
}

func (e *Editor) askAsync(p AsyncProvider, i int, r Request, seq int, explicitTab bool) {
	r.Lines = slices.Clone(r.Lines) // the provider may hold it while the user types
	text, line, col := e.RawText(), e.line, e.col
	answered := false
	p.SuggestAsync(r, func(s *Suggestions) {
		e.post(func() {
			if answered {
				return
			}
			answered = true
			if seq != e.acSeq || e.RawText() != text || e.line != line || e.col != col {
				return
			}
			if s != nil && len(s.Items) > 0 {
				e.show(p, s, r.Force, explicitTab)
			} else {
				e.askFrom(i+1, r, seq, explicitTab)
			}
			if e.opt.RequestRender != nil {
				e.opt.RequestRender()
			}
		})
	})
}

func (e *Editor) post(fn func()) {
	if e.opt.Post != nil {
		e.opt.Post(fn)
		return
	}
	fn()
}
