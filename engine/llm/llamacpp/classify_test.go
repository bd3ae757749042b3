package llamacpp_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine/llm/llamacpp"
	"github.com/pi-go/pi/engine/llm/llamacpp/llamatest"
)

const classifyReq = `{"state":{"b":[1,2],"a":"x"},"questions":{
 "ok":{"type":"bool","instructions":"Is it fine?","criteria":{"true":"all good"}},
 "pick":{"type":"choice","instructions":"Which?","criteria":{"red":"warm","blue":"","green":"leafy"}},
 "level":{"type":"score","instructions":"How much?","criteria":["none","some","lots"]}}}`

// Each question is one prompt (state, every question, state again, the
// question with labels); the label log-probabilities become the answers
// in the reference's shapes, in the request's order.
func TestClassify(t *testing.T) {
	t.Parallel()
	r := llamatest.New(false, llamatest.Model{ID: "qwen", Status: "loaded"})
	defer r.Close()
	r.SetLogprobs(map[string]float64{"Yes": math.Log(0.6), "No": math.Log(0.2), "A": math.Log(0.1), "B": math.Log(0.7), "C": math.Log(0.2),
		"0": math.Log(0.2), "1": math.Log(0.2), "2": math.Log(0.6)})
	c, _ := llamacpp.NewClient(r.URL, "k")
	req, err := llamacpp.ParseClassifyRequest(json.RawMessage(classifyReq))
	require.NoError(t, err)
	out, err := c.Classify(context.Background(), "qwen", req, 1)
	require.NoError(t, err)
	var answers map[string]map[string]any
	require.NoError(t, json.Unmarshal(out, &answers))
	assert.True(t, strings.HasPrefix(string(out), `{"ok":{"type":"bool","probability":0.7`), string(out))
	assert.InDelta(t, 0.75, answers["ok"]["probability"], 1e-9)
	assert.Equal(t, "blue", answers["pick"]["choice"])
	assert.InDelta(t, (3*0.7-1)/2, answers["pick"]["confidence"], 1e-9)
	assert.InDelta(t, 0.7, answers["pick"]["probabilities"].(map[string]any)["blue"], 1e-9)
	assert.InDelta(t, 0.2+2*0.6, answers["level"]["score"], 1e-9)

	prompts := r.Prompts()
	require.Len(t, prompts, 3)
	state := "State:\n{\n \"b\": [\n  1,\n  2\n ],\n \"a\": \"x\"\n}"
	for _, p := range prompts {
		assert.Equal(t, 2, strings.Count(p, state), "the state twice: %s", p)
		assert.Contains(t, p, "- red: warm\n- blue\n- green: leafy", "the overview lists every question unlabelled")
	}
	assert.Contains(t, prompts[1], "A. red: warm\nB. blue\nC. green: leafy")
	assert.Contains(t, prompts[2], "0. none\n1. some\n2. lots")
	assert.True(t, strings.HasSuffix(prompts[0], "Reply Yes or No."), prompts[0])

	// A higher temperature softens the distribution; the answer stays.
	soft, err := c.Classify(context.Background(), "qwen", req, 4)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(soft, &answers))
	assert.Less(t, answers["ok"]["probability"], 0.75)
	assert.Equal(t, "blue", answers["pick"]["choice"])
}

func TestClassifyErrors(t *testing.T) {
	t.Parallel()
	r := llamatest.New(false, llamatest.Model{ID: "qwen", Status: "loaded"})
	defer r.Close()
	c, _ := llamacpp.NewClient(r.URL, "")
	parse := func(s string) llamacpp.ClassifyRequest {
		req, err := llamacpp.ParseClassifyRequest(json.RawMessage(s))
		require.NoError(t, err)
		return req
	}
	_, err := c.Classify(context.Background(), "qwen", parse(`{"state":1,"questions":{"q":{"type":"choice","instructions":"?","criteria":{"only":""}}}}`), 1)
	require.EqualError(t, err, "A choice question needs 2 to 62 options, got 1")
	assert.Empty(t, r.Requests(), "questions are checked before any request")
	_, err = c.Classify(context.Background(), "qwen", parse(`{"state":1,"questions":{"q":{"type":"bool","instructions":"?"}}}`), 0)
	require.EqualError(t, err, "Temperature must be a positive number, got 0")
	_, err = c.Classify(context.Background(), "qwen", parse(`{"state":1,"images":[{}],"questions":{}}`), 1)
	require.EqualError(t, err, "llama.cpp classification does not support image input")
	r.SetLogprobs(map[string]float64{"Yes": -1})
	_, err = c.Classify(context.Background(), "qwen", parse(`{"state":1,"questions":{"q":{"type":"bool","instructions":"?"}}}`), 1)
	require.EqualError(t, err, "llama.cpp did not rank labels No for q within the top 32768 tokens")
	r.SetLogprobs(map[string]float64{"Yes": -1e30, "No": -1e30})
	_, err = c.Classify(context.Background(), "qwen", parse(`{"state":1,"questions":{"q":{"type":"bool","instructions":"?"}}}`), 1)
	require.EqualError(t, err, "qwen gave no probability to any answer label for q")

	res := llamacpp.ClassifyResult("llama-cpp-classify", "llama.cpp", "qwen", nil, err, false)
	assert.True(t, strings.HasPrefix(string(res), `{"api":"llama-cpp-classify","provider":"llama.cpp","model":"qwen","answers":{},"stopReason":"error","timestamp":`), string(res))
	assert.True(t, strings.HasSuffix(string(res), `"errorMessage":"qwen gave no probability to any answer label for q"}`), string(res))
}
