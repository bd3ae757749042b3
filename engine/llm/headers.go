package llm

import (
	"net/http"
	"strings"

	"github.com/pi-go/pi/engine"
)

// Header is one request header, its name as written.
type Header struct{ Name, Value string }

// HeaderList is a request's headers in the order the adapter sets them,
// merged as the reference's header objects merge: names match in any
// case, and a later Set replaces an earlier entry in its place, name and
// value both.
type HeaderList []Header

// Set adds a header or replaces the one of the same name.
func (h *HeaderList) Set(name, value string) {
	for i := range *h {
		if strings.EqualFold((*h)[i].Name, name) {
			(*h)[i] = Header{name, value}
			return
		}
	}
	*h = append(*h, Header{name, value})
}

// Apply writes the headers to r with their names as written (not
// canonicalised, so they go out as the reference sends them), leaving out
// the names an extension's before_provider_headers hook dropped.
func (h HeaderList) Apply(r *http.Request, req *engine.LLMRequest) {
	for _, e := range h {
		if len(req.DropHeaders) > 0 && req.HeaderDropped(e.Name) {
			continue
		}
		r.Header[e.Name] = []string{e.Value}
	}
}
