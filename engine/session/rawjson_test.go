package session

import (
	"encoding/json"
	"testing"
)

// TestObjectRewriteMatchesJSONStringify edits a record the way the
// migration does and compares the bytes with what the reference's
// JSON.parse, assignment and JSON.stringify give (node 22, recorded in
// want). Keys keep their order, new keys go last, values are compacted,
// and <, >, & and U+2028/U+2029 in keys and set values stay raw: the
// earlier copy wrote them with json.Marshal, which escapes them
// (`"a\u003cb"`), a byte difference from the reference. (Values read from
// the file keep their number literals and escapes as written, where the
// reference would re-serialise them; that is unchanged.)
func TestObjectRewriteMatchesJSONStringify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		edit func(o *object)
		want string
	}{
		{
			name: "html and separators in keys",
			in:   "{\"a<b>&\u2028\":\"<i>\u2029\",\"x\":{ \"y\" : 2 }}",
			edit: func(o *object) { o.set("version", 3) },
			want: "{\"a<b>&\u2028\":\"<i>\u2029\",\"x\":{\"y\":2},\"version\":3}",
		},
		{
			name: "set in place, delete, append",
			in:   `{"type":"compaction","firstKeptEntryIndex":2,"id":"a"}`,
			edit: func(o *object) {
				o.set("type", "compaction")
				o.set("firstKeptEntryId", "b")
				o.del("firstKeptEntryIndex")
				o.set("parentId", json.RawMessage("null"))
			},
			want: `{"type":"compaction","id":"a","firstKeptEntryId":"b","parentId":null}`,
		},
		{
			name: "set string value",
			in:   `{"role":"hookMessage"}`,
			edit: func(o *object) { o.set("role", "a<b>&\u2028") },
			want: "{\"role\":\"a<b>&\u2028\"}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o, err := parseObject([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			tt.edit(o)
			if got := string(o.bytes()); got != tt.want {
				t.Errorf("bytes() = %s\nwant      %s", got, tt.want)
			}
		})
	}
}
