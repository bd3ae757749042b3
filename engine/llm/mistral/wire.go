package mistral

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/pi-go/pi/engine/llm"
	"github.com/pi-go/pi/internal/jsonx"
)

// The reference builds its payload with the Mistral SDK's camelCase names
// and renames them for the wire just before sending, after the
// before_provider_request hook has seen (and maybe replaced) it. The
// renaming below is that step, applied to whatever JSON the hook left: a
// renamed key moves to the end of its object, or takes the place of the
// wire key when both are present.

var topLevelRenames = [][2]string{
	{"topP", "top_p"},
	{"maxTokens", "max_tokens"},
	{"randomSeed", "random_seed"},
	{"responseFormat", "response_format"},
	{"toolChoice", "tool_choice"},
	{"presencePenalty", "presence_penalty"},
	{"frequencyPenalty", "frequency_penalty"},
	{"parallelToolCalls", "parallel_tool_calls"},
	{"reasoningEffort", "reasoning_effort"},
	{"promptMode", "prompt_mode"},
	{"promptCacheKey", "prompt_cache_key"},
	{"safePrompt", "safe_prompt"},
}

var messageRenames = [][2]string{{"toolCalls", "tool_calls"}, {"toolCallId", "tool_call_id"}}

var chunkRenames = [][2]string{
	{"imageUrl", "image_url"},
	{"documentUrl", "document_url"},
	{"documentName", "document_name"},
	{"fileId", "file_id"},
	{"referenceIds", "reference_ids"},
	{"inputAudio", "input_audio"},
}

// wirePayload renames the SDK-form payload's keys to the wire form.
func wirePayload(payload []byte) ([]byte, error) {
	top, ok := objectFields(payload)
	if !ok {
		return nil, errors.New("request payload is not a JSON object")
	}
	top = rename(top, topLevelRenames)
	for i, f := range top {
		switch f.Key {
		case "messages":
			msgs, ok := arrayItems(raw(f.Value))
			if !ok {
				continue
			}
			out := make([]json.RawMessage, len(msgs))
			for j, mr := range msgs {
				out[j] = wireMessage(mr)
			}
			top[i].Value = marshalArray(out)
		case "response_format":
			rf, ok := objectFields(raw(f.Value))
			if !ok {
				continue
			}
			rf = rename(rf, [][2]string{{"jsonSchema", "json_schema"}})
			for k, g := range rf {
				if g.Key != "json_schema" {
					continue
				}
				if js, ok := objectFields(raw(g.Value)); ok {
					rf[k].Value = mustObject(rename(js, [][2]string{{"schemaDefinition", "schema"}}))
				}
			}
			top[i].Value = mustObject(rf)
		}
	}
	out, err := llm.Object(top).MarshalJSON()
	if err != nil {
		return nil, err
	}
	// A hook may hand back indented JSON; the reference sends its payload
	// through JSON.stringify, which writes it compact.
	var b bytes.Buffer
	if err := json.Compact(&b, out); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func wireMessage(mr json.RawMessage) json.RawMessage {
	fields, ok := objectFields(mr)
	if !ok {
		return mr
	}
	fields = rename(fields, messageRenames)
	for i, f := range fields {
		if f.Key != "content" {
			continue
		}
		chunks, ok := arrayItems(raw(f.Value))
		if !ok {
			continue
		}
		out := make([]json.RawMessage, len(chunks))
		for j, c := range chunks {
			if cf, ok := objectFields(c); ok {
				out[j] = mustObject(rename(cf, chunkRenames))
			} else {
				out[j] = c
			}
		}
		fields[i].Value = marshalArray(out)
	}
	return mustObject(fields)
}

// rename moves each source key to its target name, as the reference's
// property remap does: assigning the target then deleting the source.
func rename(fields []llm.Field, pairs [][2]string) []llm.Field {
	for _, p := range pairs {
		src := llm.Object(fields).Index(p[0])
		if src < 0 {
			continue
		}
		v := fields[src].Value
		// fields[:src:src] makes append copy, so the caller's slice keeps its
		// members and the target is looked up without the source.
		fields = append(fields[:src:src], fields[src+1:]...)
		fields = llm.Object(fields).Put(p[1], v)
	}
	return fields
}

func raw(v any) json.RawMessage {
	r, _ := v.(json.RawMessage)
	return r
}

// objectFields reads a JSON object's members in order, values raw.
func objectFields(data json.RawMessage) ([]llm.Field, bool) {
	fields, err := jsonx.Members(data)
	return fields, err == nil
}

func arrayItems(data json.RawMessage) ([]json.RawMessage, bool) {
	if len(bytes.TrimSpace(data)) == 0 || bytes.TrimSpace(data)[0] != '[' {
		return nil, false
	}
	var items []json.RawMessage
	if json.Unmarshal(data, &items) != nil {
		return nil, false
	}
	return items, true
}

func marshalArray(items []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// mustObject marshals fields whose values are all raw JSON, which cannot
// fail.
func mustObject(fields []llm.Field) json.RawMessage {
	b, _ := llm.Object(fields).MarshalJSON()
	return b
}
