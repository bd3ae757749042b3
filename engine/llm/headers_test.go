package llm

import (
	"net/http"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
)

func TestHeaderList(t *testing.T) {
	t.Parallel()
	var h HeaderList
	h.Set("User-Agent", "a")
	h.Set("x-api-key", "k")
	h.Set("accept", "json")
	h.Set("user-agent", "b") // replaces in place, name as written last
	h.Set("X-Extra", "e")
	assert.Equal(t, HeaderList{{"user-agent", "b"}, {"x-api-key", "k"}, {"accept", "json"}, {"X-Extra", "e"}}, h)

	r, err := http.NewRequest(http.MethodPost, "http://127.0.0.1/", nil)
	assert.NoError(t, err)
	h.Apply(r, &engine.LLMRequest{DropHeaders: []string{"X-API-KEY"}})
	assert.Equal(t, http.Header{"user-agent": {"b"}, "accept": {"json"}, "X-Extra": {"e"}}, r.Header)
}
