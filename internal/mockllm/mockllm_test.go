package mockllm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The golden files were recorded from the Python mock (mockllm.py) with
// testdata/script.json, so these tests prove the port streams the same
// bytes.
func TestSameBytesAsPythonMock(t *testing.T) {
	t.Parallel()
	tests := []struct {
		golden, path, body string
	}{
		{"openai.golden", "/v1/chat/completions", `{"model":"m1","stream":true,"stream_options":{"include_usage":true}}`},
		{"anthropic.golden", "/v1/messages?beta=true", `{"model":"m2","stream":true}`},
		{"openai_whole.golden", "/v1/chat/completions", `{"model":"m1"}`},
		{"anthropic_whole.golden", "/v1/messages", `{"model":"m2"}`},
	}
	script, err := LoadScript(filepath.Join("testdata", "script.json"))
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			t.Parallel()
			s := Start(t, script)
			var parts [][]byte
			client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			for range 6 {
				resp, err := client.Post(s.BaseURL()+tt.path, "application/json", bytes.NewBufferString(tt.body))
				if err != nil {
					parts = append(parts, []byte("=== DROP\n"))
					continue
				}
				data, err := io.ReadAll(resp.Body)
				_ = resp.Body.Close()
				if err != nil {
					data = append(data, "<<CUT>>"...)
				}
				parts = append(parts, append([]byte(fmt.Sprintf("=== %d\n", resp.StatusCode)), data...))
			}
			got := bytes.Join(parts, []byte("\n"))
			want, err := os.ReadFile(filepath.Join("testdata", tt.golden))
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))

			reqs := s.Requests()
			require.Len(t, reqs, 6)
			assert.Equal(t, "reply", reqs[0].Kind)
			assert.Equal(t, "fault", reqs[2].Kind)
			assert.Equal(t, "disconnect", reqs[4].Kind)
			assert.Nil(t, reqs[5].Turn)
			assert.JSONEq(t, tt.body, string(reqs[0].Body))
		})
	}
}

func TestParseScriptShapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in       string
		turns    int
		fallback string
		kinds    []string
	}{
		{`null`, 0, "", nil},
		{`[{"text":""},{"hang_ms":10},{"hang_ms":10,"text":"x"},{"status":500}]`, 4, "", []string{"reply", "hang", "reply", "fault"}},
		{`{"turns":[{"disconnect_after_chunks":0}],"fallback_text":"bye"}`, 1, "bye", []string{"disconnect"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			s, err := ParseScript([]byte(tt.in))
			require.NoError(t, err)
			assert.Len(t, s.Turns, tt.turns)
			assert.Equal(t, tt.fallback, s.FallbackText)
			for i, k := range tt.kinds {
				assert.Equal(t, k, s.Turns[i].Kind())
			}
		})
	}
}

func TestHangIsCutWhenClientGoesAway(t *testing.T) {
	t.Parallel()
	s := Start(t, Script{Turns: []Turn{{HangMs: 60000}}})
	req, err := http.NewRequest(http.MethodPost, s.URL()+"/chat/completions", bytes.NewBufferString(`{"stream":true}`))
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			err = errors.New("unexpected response")
		}
		done <- err
	}()
	// Wait until the request is being held before closing the server.
	for len(s.Requests()) == 0 {
		time.Sleep(time.Millisecond)
	}
	s.Close()
	require.Error(t, <-done)
	rec := s.Requests()
	b, err := json.Marshal(rec[0])
	require.NoError(t, err)
	assert.Contains(t, string(b), `"kind":"hang"`)
}
