// Command testserver is a small stdio MCP server for pi's tests, built on
// the SDK's server package: ping answers PONG:<text>, fail returns an
// error result, slow reports progress before it answers, env and cwd report the process's environment and
// directory, and one text resource is offered. With -hang, tools/call
// never answers; with -crash, the process exits on the first call.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"log"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	hang := flag.Bool("hang", false, "never answer tool calls")
	crash := flag.Bool("crash", false, "exit on the first tool call")
	flag.Parse()
	s := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1.0.0"}, &mcp.ServerOptions{Instructions: "Echo server for tests.\nSecond line."})
	text := func(s string, isErr bool) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}, IsError: isErr}
	}
	guard := func(ctx context.Context) {
		if *crash {
			os.Exit(3)
		}
		if *hang {
			<-ctx.Done()
		}
	}
	arg := func(req *mcp.CallToolRequest, key string) string {
		var m map[string]string
		_ = json.Unmarshal(req.Params.Arguments, &m)
		return m[key]
	}
	s.AddTool(&mcp.Tool{Name: "ping", Description: "Reply with PONG and the text",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			guard(ctx)
			return text("PONG:"+arg(req, "text"), false), nil
		})
	s.AddTool(&mcp.Tool{Name: "fail", Description: "Always fails", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			guard(ctx)
			return text("boom", true), nil
		})
	s.AddTool(&mcp.Tool{Name: "slow", Description: "Answers after five progress steps 300 ms apart", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			for i := 1; i <= 5; i++ {
				time.Sleep(300 * time.Millisecond)
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: 5})
			}
			return text("slow done", false), nil
		})
	s.AddTool(&mcp.Tool{Name: "env", Description: "Value of an environment variable", InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(os.Getenv(arg(req, "name")), false), nil
		})
	s.AddTool(&mcp.Tool{Name: "cwd", Description: "Working directory", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			wd, _ := os.Getwd()
			return text(wd, false), nil
		})
	s.AddResource(&mcp.Resource{URI: "file:///a.txt", Name: "a", MIMEType: "text/plain"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "hello a"}}}, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
