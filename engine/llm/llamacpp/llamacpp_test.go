package llamacpp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine/llm/llamacpp"
	"github.com/pi-go/pi/engine/llm/llamacpp/llamatest"
)

func TestNormalizeServerURL(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want, err string }{
		{in: "http://127.0.0.1:9931", want: "http://127.0.0.1:9931"},
		{in: " http://127.0.0.1:9931/v1/ ", want: "http://127.0.0.1:9931"},
		{in: "https://host/llama/v1?x=1#f", want: "https://host/llama"},
		{in: "http://host/", want: "http://host"},
		{in: "ftp://host", err: "Server URL must use http or https"},
		{in: "not a url", err: "Invalid URL"},
	}
	for _, c := range cases {
		got, err := llamacpp.NormalizeServerURL(c.in)
		if c.err != "" {
			require.ErrorContains(t, err, c.err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, got, c.in)
	}
	assert.Equal(t, "http://h:1/v1", llamacpp.InferenceURL("http://h:1/v1/"))
}

// The catalog is the reference's, byte for byte (its models-store.json
// for the same router list): a loaded thinking model with images and a
// running context, a sleeping one, an autoload preset, an unloaded model
// that is left out, and a decision model that is only a classifier.
func TestFetchCatalog(t *testing.T) {
	t.Parallel()
	r := llamatest.New(true,
		llamatest.Model{ID: "qwen", Status: "loaded", Args: []string{"llama-server", "-c", "4096"}, NCtx: 8192, Image: true, ChatTemplate: "{% if enable_thinking %}x{% endif %}"},
		llamatest.Model{ID: "sleepy", Status: "sleeping"},
		llamatest.Model{ID: "preset", Status: "unloaded", Source: "preset"},
		llamatest.Model{ID: "plain", Status: "unloaded"},
		llamatest.Model{ID: "jev", Status: "loaded", Decision: true},
	)
	defer r.Close()
	c, err := llamacpp.NewClient(r.URL, "secret")
	require.NoError(t, err)
	cat, err := llamacpp.Fetch(context.Background(), c, nil)
	require.NoError(t, err)
	base := r.URL
	want := []string{
		`{"id":"qwen","name":"qwen","api":"openai-completions","provider":"llama.cpp","baseUrl":"` + base + `/v1","reasoning":true,"thinkingLevelMap":{"off":"off","minimal":null,"low":null,"medium":"medium","high":null,"xhigh":null},"input":["text","image"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":8192,"maxTokens":8192,"compat":{"supportsStore":false,"supportsReasoningEffort":false,"supportsUsageInStreaming":true,"supportsStrictMode":false,"maxTokensField":"max_tokens","thinkingFormat":"qwen-chat-template"}}`,
		`{"id":"sleepy","name":"sleepy","api":"openai-completions","provider":"llama.cpp","baseUrl":"` + base + `/v1","reasoning":false,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":128000,"maxTokens":128000,"compat":{"supportsStore":false,"supportsReasoningEffort":false,"supportsUsageInStreaming":true,"supportsStrictMode":false,"maxTokensField":"max_tokens"}}`,
		`{"id":"preset","name":"preset","api":"openai-completions","provider":"llama.cpp","baseUrl":"` + base + `/v1","reasoning":false,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":128000,"maxTokens":128000,"compat":{"supportsStore":false,"supportsReasoningEffort":false,"supportsUsageInStreaming":true,"supportsStrictMode":false,"maxTokensField":"max_tokens"}}`,
	}
	var got []string
	for _, m := range cat.Chat {
		got = append(got, string(m))
	}
	assert.Equal(t, want, got)
	var cls []string
	for _, m := range cat.Classifiers {
		cls = append(cls, string(m))
	}
	assert.Equal(t, []string{
		`{"type":"classifier","id":"qwen","name":"qwen","api":"llama-cpp-classify","provider":"llama.cpp","baseUrl":"` + base + `","input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":8192}`,
		`{"type":"classifier","id":"sleepy","name":"sleepy","api":"llama-cpp-classify","provider":"llama.cpp","baseUrl":"` + base + `","input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":128000}`,
		`{"type":"classifier","id":"preset","name":"preset","api":"llama-cpp-classify","provider":"llama.cpp","baseUrl":"` + base + `","input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":128000}`,
		`{"type":"classifier","id":"jev","name":"jev","api":"typesafe-system-one","provider":"llama.cpp","baseUrl":"` + base + `/v1","input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":128000}`,
	}, cls)
	// Only loaded chat models are asked for their template: asking a
	// sleeping one would wake it.
	assert.Equal(t, []string{"GET /models", "GET /props", "GET /props?model=qwen&autoload=false"}, r.Requests())
	for _, a := range r.Auth() {
		assert.Equal(t, "Bearer secret", a)
	}
}

func TestFetchWithoutAutoloadDropsPresets(t *testing.T) {
	t.Parallel()
	r := llamatest.New(false, llamatest.Model{ID: "preset", Status: "unloaded", Source: "preset"})
	defer r.Close()
	c, _ := llamacpp.NewClient(r.URL, "")
	cat, err := llamacpp.Fetch(context.Background(), c, map[string]int{"preset": 4096})
	require.NoError(t, err)
	assert.Empty(t, cat.Chat)
	assert.Empty(t, cat.Classifiers)
	assert.Equal(t, []string{""}, r.Auth()[:1], "no key, no Authorization header")
}

func TestContextWindowOrder(t *testing.T) {
	t.Parallel()
	m := llamacpp.ModelInfo{ID: "m", Status: llamacpp.ModelStatus{Value: "sleeping", Args: []string{"--ctx-size", "2048"}}, Meta: &llamacpp.ModelMeta{NCtxTrain: 9000}}
	assert.Equal(t, 2048, llamacpp.ContextWindow(m, 5000))
	m.Status.Args = nil
	assert.Equal(t, 5000, llamacpp.ContextWindow(m, 5000))
	assert.Equal(t, 9000, llamacpp.ContextWindow(m, 0))
	m.Meta.NCtx = 100
	assert.Equal(t, 100, llamacpp.ContextWindow(m, 5000))
}

func TestLoadUnloadDownload(t *testing.T) {
	t.Parallel()
	r := llamatest.New(false, llamatest.Model{ID: "a", Status: "unloaded"}, llamatest.Model{ID: "b", Status: "loaded"})
	defer r.Close()
	c, _ := llamacpp.NewClient(r.URL+"/v1", "")
	ctx := context.Background()
	e, err := c.LoadAndWait(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, "loaded", e.Status.Value)
	require.NoError(t, c.UnloadAndWait(ctx, "b"))
	assert.Equal(t, "unloaded", r.Status("b"))
	_, err = c.LoadAndWait(ctx, "missing")
	require.EqualError(t, err, "unknown model missing", "the router's own message")
	list, err := c.DownloadAndWait(ctx, "owner/repo:Q4_K_M")
	require.NoError(t, err)
	assert.Equal(t, "owner/repo:Q4_K_M", list[len(list)-1].ID)
	assert.Contains(t, r.Requests(), "GET /models?reload=1")
}

func TestListErrors(t *testing.T) {
	t.Parallel()
	c, _ := llamacpp.NewClient("http://127.0.0.1:1", "")
	_, err := c.List(context.Background(), false)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "Could not reach llama.cpp server at http://127.0.0.1:1: "), err.Error())
}

func TestFormatBytes(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "512 B", llamacpp.FormatBytes(512))
	assert.Equal(t, "1.50 KiB", llamacpp.FormatBytes(1536))
	assert.Equal(t, "4.40 GiB", llamacpp.FormatBytes(4724464025))
	assert.Equal(t, "14.0 GiB", llamacpp.FormatBytes(15032385536))
}
