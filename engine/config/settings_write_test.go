package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSetGlobalRewritesAsJSONStringify compares an edited settings file
// with what the reference writes for the same edit (JSON.parse, assign,
// JSON.stringify(settings, null, 2); recorded with node 22): escapes in
// strings are written as JSON.stringify writes them, and a repeated key is
// written once, in its first place with its last value. The earlier
// gjson/sjson edit kept the file's escapes ("\u00e9", "\/") and both
// copies of a repeated key.
func TestSetGlobalRewritesAsJSONStringify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, initial, key string
		value              any
		want               string
	}{
		{
			name:    "escapes and repeated key",
			initial: `{"a":"\u00e9\/x","b":[1,{"c":"\u2028"}],"a":"<\u003e&"}`,
			key:     "steeringMode", value: "all",
			want: "{\n  \"a\": \"<>&\",\n  \"b\": [\n    1,\n    {\n      \"c\": \"\u2028\"\n    }\n  ],\n  \"steeringMode\": \"all\"\n}",
		},
		{
			name:    "nested key into a new object",
			initial: `{"retry":{"maxRetries":5.0},"z":null}`,
			key:     "compaction.enabled", value: false,
			// JavaScript would print 5.0 as 5; number literals are kept as
			// written, as before.
			want: "{\n  \"retry\": {\n    \"maxRetries\": 5.0\n  },\n  \"z\": null,\n  \"compaction\": {\n    \"enabled\": false\n  }\n}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			agent := t.TempDir()
			p := filepath.Join(agent, "settings.json")
			writeFile(t, p, tt.initial)
			s, err := Load(agent, "", false)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.SetGlobal(tt.key, tt.value); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(p)
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
