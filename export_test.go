package pi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	pi "github.com/pi-go/pi"
)

// TestExportSessionFile checks `pi --export`'s work: a session file
// becomes an HTML page at the given path, a missing file and a file that
// is not a session fail with the reference's words.
func TestExportSessionFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sess := filepath.Join(dir, "s.jsonl")
	header := `{"type":"session","version":3,"id":"11111111-2222-3333-4444-555555555555","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}` + "\n" +
		`{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"hello export"}],"timestamp":1}}` + "\n"
	if err := os.WriteFile(sess, []byte(header), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"x":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.html")
	tests := []struct {
		name, in, out, want, wantErr string
	}{
		{name: "session", in: sess, out: out, want: out},
		{name: "missing", in: filepath.Join(dir, "nope.jsonl"), wantErr: "File not found: " + filepath.Join(dir, "nope.jsonl")},
		{name: "not a session", in: bad, wantErr: "Session file is not a valid pi session: " + bad},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := pi.ExportSessionFile(tc.in, tc.out)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("path %q, want %q", got, tc.want)
			}
			page, err := os.ReadFile(got)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(page), "<html") {
				t.Errorf("%s is not an HTML page", got)
			}
		})
	}
}
