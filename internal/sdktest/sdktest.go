package sdktest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-go/pi/internal/mockllm"
)

// Model is the model the agent directory defines.
const Model = "mock/mock-model"

// Start serves script and makes a temporary agent directory whose
// models.json describes the mock (provider "mock", model "mock-model")
// and a project directory beside it. stop closes the server and removes
// both.
func Start(script mockllm.Script) (agentDir, projectDir string, srv *mockllm.Server, stop func(), err error) {
	root, err := os.MkdirTemp("", "pi-sdktest-")
	if err != nil {
		return "", "", nil, nil, err
	}
	agentDir, projectDir = filepath.Join(root, "agent"), filepath.Join(root, "project")
	for _, d := range []string{agentDir, projectDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", "", nil, nil, err
		}
	}
	srv = mockllm.Start(nil, script)
	stop = func() {
		srv.Close()
		_ = os.RemoveAll(root)
	}
	models := fmt.Sprintf(`{"providers":{"mock":{"baseUrl":%q,"api":"openai-completions","apiKey":"mock-key",`+
		`"models":[{"id":"mock-model","name":"Mock","contextWindow":128000,"maxTokens":4096}]}}}`, srv.URL())
	if err := os.WriteFile(filepath.Join(agentDir, "models.json"), []byte(models), 0o600); err != nil {
		stop()
		return "", "", nil, nil, err
	}
	return agentDir, projectDir, srv, stop, nil
}

// Home is Start for a test: everything is cleaned up with t.
func Home(t testing.TB, script mockllm.Script) (agentDir, projectDir string, srv *mockllm.Server) {
	t.Helper()
	agentDir, projectDir, srv, stop, err := Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return agentDir, projectDir, srv
}
