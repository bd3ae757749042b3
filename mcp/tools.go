package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
)

// maxToolNameLength is the providers' limit on tool names.
const maxToolNameLength = 64

// maxOutputBytes is the size past which a result's text loses its middle.
const maxOutputBytes = 20 * 1024

// ToolName is mcp__<server>__<tool> with everything but letters, digits
// and _ replaced by _, shortened with a hash suffix when too long or when
// taken reports the name as used by another tool of the server.
func ToolName(server, tool string, taken func(string) bool) string {
	name := strings.Map(func(r rune) rune {
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, "mcp__"+server+"__"+tool)
	if len(name) <= maxToolNameLength && (taken == nil || !taken(name)) {
		return name
	}
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	hash := hex.EncodeToString(sum[:])[:8]
	return name[:min(len(name), maxToolNameLength-len(hash)-1)] + "_" + hash
}

// serverTool is one server tool as a pi tool.
type serverTool struct {
	conn *Conn
	def  ToolDef
	info engine.ToolInfo
	// readable reports whether read_mcp_resource can read the server's
	// resource links.
	readable func() bool
}

func newServerTool(conn *Conn, def ToolDef, name string, readable func() bool) *serverTool {
	desc := strings.TrimSpace(def.Description)
	if desc == "" {
		desc = def.Title
	}
	if desc == "" {
		desc = fmt.Sprintf("MCP tool %s from server %s", def.Name, conn.Server.Name)
	}
	return &serverTool{conn: conn, def: def, readable: readable, info: engine.ToolInfo{
		Name: name, Label: conn.Server.Name + "/" + def.Name, Description: desc,
		Parameters: normalizeSchema(def.InputSchema), OwnSampling: true,
	}}
}

func (t *serverTool) Info() engine.ToolInfo { return t.info }

// Annotations are the server's hints about the tool.
func (t *serverTool) Annotations() jsonx.Object { return t.def.Annotations }

func (t *serverTool) Execute(ctx context.Context, call engine.ToolCall, onUpdate func(engine.ToolResult)) (engine.ToolResult, error) {
	server := t.conn.Server.Name
	var progress func(string)
	if onUpdate != nil {
		details := detailsJSON(server, t.def.Name, "")
		var mu sync.Mutex
		done := false
		defer func() {
			mu.Lock()
			done = true
			mu.Unlock()
		}()
		progress = func(msg string) {
			// A notification racing the result must not update a call
			// that already ended.
			mu.Lock()
			defer mu.Unlock()
			if !done {
				onUpdate(engine.ToolResult{Content: []engine.Content{engine.TextContent(msg)}, Details: details})
			}
		}
	}
	raw, res, err := t.conn.CallTool(ctx, t.def.Name, call.Args, progress)
	if err != nil {
		return engine.ErrorResult(err.Error()), nil
	}
	return convertResult(server, t.def.Name, raw, res.IsError, t.readable != nil && t.readable())
}

// normalizeSchema makes the input schema an object schema with
// properties, as the reference declares it: type first when the server
// left it out, the server's keys in its order otherwise.
func normalizeSchema(raw json.RawMessage) json.RawMessage {
	v, err := jsonx.Decode(raw)
	o, ok := v.(jsonx.Object)
	if err != nil || !ok {
		o = jsonx.Object{}
	}
	o = slices0(o)
	if _, ok := o.Get("type"); !ok {
		o = o.Put("type", "object")
	}
	if _, ok := o.Get("properties"); !ok {
		o = o.Put("properties", jsonx.Object{})
	}
	b, err := jsonx.Marshal(o)
	if err != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return b
}

func slices0(o jsonx.Object) jsonx.Object { return append(jsonx.Object(nil), o...) }

// block is an MCP content block.
type block struct {
	Type        string          `json:"type"`
	Text        string          `json:"text"`
	Data        string          `json:"data"`
	MimeType    string          `json:"mimeType"`
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Size        *int64          `json:"size"`
	Resource    *resourceBlock  `json:"resource"`
	Raw         json.RawMessage `json:"-"`
}

type resourceBlock struct {
	URI      string  `json:"uri"`
	MimeType string  `json:"mimeType"`
	Text     *string `json:"text"`
	Blob     *string `json:"blob"`
}

// convertResult turns a CallToolResult (raw, key order kept) into the
// model's content; the whole result is the structured content scripts
// and clients see, and details name the server and tool.
func convertResult(server, tool string, raw json.RawMessage, isError, readable bool) (engine.ToolResult, error) {
	var r struct {
		Content           []block         `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return engine.ErrorResult(fmt.Sprintf("MCP tool %s/%s returned an invalid result: %v", server, tool, err)), nil
	}
	var content []engine.Content
	for _, b := range r.Content {
		content = append(content, blockContent(server, b, readable))
	}
	if len(r.Content) == 0 && len(r.StructuredContent) > 0 && string(r.StructuredContent) != "null" {
		// JSON.stringify(value, null, 2) of the structured content.
		var pretty bytes.Buffer
		if v, err := jsonx.Decode(r.StructuredContent); err == nil {
			if b, err := jsonx.Marshal(v); err == nil {
				_ = json.Indent(&pretty, b, "", "  ")
			}
		}
		content = append(content, engine.TextContent(pretty.String()))
	}
	if isError && textOf(content) == "" {
		content = append(content, engine.TextContent(fmt.Sprintf("MCP tool %s/%s returned an error", server, tool)))
	}
	content, fullPath := limitContent(content)
	details := jsonx.NewBuilder().Set("server", server).Set("tool", tool)
	if fullPath != "" {
		details.Set("fullOutputPath", fullPath)
	}
	d, err := details.Bytes()
	if err != nil {
		return engine.ToolResult{}, err
	}
	return engine.ToolResult{Content: content, Details: d, StructuredContent: raw, IsError: isError}, nil
}

func textOf(content []engine.Content) string {
	var parts []string
	for _, c := range content {
		if c.Type == engine.ContentText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func blockContent(server string, b block, readable bool) engine.Content {
	switch b.Type {
	case "text":
		return engine.TextContent(b.Text)
	case "image":
		return engine.ImageContent(b.Data, b.MimeType)
	case "audio":
		return engine.TextContent(fmt.Sprintf("[audio %s omitted]", b.MimeType))
	case "resource_link":
		var extra []string
		if b.MimeType != "" {
			extra = append(extra, b.MimeType)
		}
		if b.Size != nil {
			extra = append(extra, formatSize(*b.Size))
		}
		title := b.Title
		if title == "" {
			title = b.Name
		}
		s := fmt.Sprintf("[Resource %s %q", b.URI, title)
		if len(extra) > 0 {
			s += " (" + strings.Join(extra, ", ") + ")"
		}
		if b.Description != "" {
			s += ": " + b.Description
		}
		if readable {
			s += fmt.Sprintf(`. Read it with %s (server "%s")`, ReadResourceTool, server)
		}
		return engine.TextContent(s + "]")
	case "resource":
		if b.Resource == nil {
			break
		}
		return resourceContent(*b.Resource)
	}
	return engine.TextContent(fmt.Sprintf("[unsupported MCP content %s]", b.Type))
}

// resourceContent is an embedded or read resource as the model sees it:
// text as text, images as images, text-like blobs decoded, and other
// blobs saved to a temporary file it can name.
func resourceContent(r resourceBlock) engine.Content {
	if r.Text != nil {
		return engine.TextContent(*r.Text)
	}
	blob := ""
	if r.Blob != nil {
		blob = *r.Blob
	}
	if strings.HasPrefix(r.MimeType, "image/") {
		return engine.ImageContent(blob, r.MimeType)
	}
	data, err := base64.StdEncoding.DecodeString(blob)
	if err != nil {
		data = nil
	}
	if isTextMime(r.MimeType) {
		return engine.TextContent(string(data))
	}
	mt := r.MimeType
	if mt == "" {
		mt = "unknown type"
	}
	kind := mt + ", " + formatSize(int64(len(data)))
	path, err := saveTemp(data, extensionOf(r.URI))
	if err != nil {
		return engine.TextContent(fmt.Sprintf("[Binary resource %s (%s) could not be saved: %v]", r.URI, kind, err))
	}
	return engine.TextContent(fmt.Sprintf("[Binary resource %s (%s) saved to %s]", r.URI, kind, path))
}

func isTextMime(mt string) bool {
	if mt == "" {
		return false
	}
	t := strings.ToLower(strings.TrimSpace(strings.SplitN(mt, ";", 2)[0]))
	return strings.HasPrefix(t, "text/") || t == "application/json" || strings.HasSuffix(t, "+json") || strings.HasSuffix(t, "+xml")
}

var extRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\.[A-Za-z0-9]{1,8}$`) })

func extensionOf(uri string) string {
	p := uri
	if u, err := url.Parse(uri); err == nil && u.Scheme != "" {
		p = u.Path
	}
	if m := extRe().FindString(p); m != "" {
		return m
	}
	return ".bin"
}

// saveTemp writes data to a new private file in the temp directory.
func saveTemp(data []byte, ext string) (string, error) {
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return "", err
	}
	path := filepath.Join(os.TempDir(), "pi-mcp-"+hex.EncodeToString(rnd[:])+ext)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return "", err
	}
	return path, f.Close()
}

func formatSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%dB", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1fKB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1fMB", float64(n)/(1024*1024))
}

// limitContent keeps the model-facing text within maxOutputBytes: longer
// text becomes one block with its middle cut out, the full text saved to
// a file the model can read, and the images after it.
func limitContent(content []engine.Content) ([]engine.Content, string) {
	combined := textOf(content)
	if len(combined) <= maxOutputBytes {
		return content, ""
	}
	head := maxOutputBytes / 2
	for head > 0 && !utf8.RuneStart(combined[head]) {
		head--
	}
	tail := len(combined) - (maxOutputBytes - maxOutputBytes/2)
	for tail < len(combined) && !utf8.RuneStart(combined[tail]) {
		tail++
	}
	removed := utf8.RuneCountInString(combined[head:tail])
	lines := strings.Count(combined, "\n") + 1
	if strings.HasSuffix(combined, "\n") {
		lines--
	}
	var where, path string
	if p, err := saveTemp([]byte(combined), ".txt"); err == nil {
		path = p
		where = fmt.Sprintf("\n\n[Full output: %s (read it with offset/limit)]", p)
	} else {
		where = fmt.Sprintf("\n\n[Could not save the full output: %v]", err)
	}
	tokens := (len(combined) + 3) / 4
	text := fmt.Sprintf("Warning: truncated output (original token count: %d)\nTotal output lines: %d\n\n%s…%d chars truncated…%s%s",
		tokens, lines, combined[:head], removed, combined[tail:], where)
	out := []engine.Content{engine.TextContent(text)}
	for _, c := range content {
		if c.Type == engine.ContentImage {
			out = append(out, c)
		}
	}
	return out, path
}
