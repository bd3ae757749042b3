package jsruntime

import (
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// compatWithEnv runs testdata/<name>.js as TestNodeCompat does, with env
// set in process.env first, and compares with testdata/<name>.golden.
// With PI_RECORD_NODE naming a Node 22 binary the golden is recorded
// from Node instead (the same script and env), so it never comes from us.
func compatWithEnv(t *testing.T, name string, env map[string]string) {
	t.Helper()
	script, err := os.ReadFile("testdata/" + name + ".js")
	if err != nil {
		t.Fatal(err)
	}
	if node := os.Getenv("PI_RECORD_NODE"); node != "" {
		cmd := exec.Command(node, "testdata/"+name+".js")
		cmd.Env = os.Environ()
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node: %v", err)
		}
		if err := os.WriteFile("testdata/"+name+".golden", out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	golden, err := os.ReadFile("testdata/" + name + ".golden")
	if err != nil {
		t.Fatal(err)
	}
	var pre strings.Builder
	for k, v := range env {
		pre.WriteString("process.env[" + strconv.Quote(k) + "] = " + strconv.Quote(v) + ";\n")
	}
	got := logOf(t, "export default function () {\n"+pre.String()+string(script)+"\n}\n")
	if got != string(golden) {
		t.Errorf("output differs from Node's\n got:\n%s\nwant:\n%s", got, golden)
	}
}

// TestTLSCompat shakes hands with a local httptest TLS server: trusted
// through ca, untrusted, wrong servername, and rejectUnauthorized false.
func TestTLSCompat(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("hello over tls"))
	}))
	// The rejected handshakes are expected; the server need not log them.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	port := srv.Listener.Addr().(interface{ String() string }).String()
	port = port[strings.LastIndex(port, ":")+1:]
	compatWithEnv(t, "tls_compat", map[string]string{"PI_TLS_PORT": port, "PI_TLS_CA": string(ca)})
}
