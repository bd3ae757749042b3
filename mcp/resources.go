package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
)

// The resource tools, which reach every enabled server with resources.
const (
	ListResourcesTool         = "list_mcp_resources"
	ListResourceTemplatesTool = "list_mcp_resource_templates"
	ReadResourceTool          = "read_mcp_resource"
)

// IsMCPToolName reports a tool that comes from MCP: a server tool or a
// resource tool.
func IsMCPToolName(name string) bool {
	return strings.HasPrefix(name, "mcp__") || name == ListResourcesTool || name == ListResourceTemplatesTool || name == ReadResourceTool
}

const listParams = `{"type":"object","properties":{"server":{"type":"string","description":"Name of the MCP server to list; leave it out to list every server that has resources."},"cursor":{"type":"string","description":"nextCursor of an earlier call for the same server, to get the next page; leave it out for the first page."}},"additionalProperties":false}`

const readParams = `{"type":"object","properties":{"server":{"type":"string","description":"Name of the MCP server, as the server field of list_mcp_resources gives it."},"uri":{"type":"string","description":"URI of the resource, one that list_mcp_resources returned."}},"required":["server","uri"],"additionalProperties":false}`

// resourceTool is one of the three resource tools.
type resourceTool struct {
	m    *Manager
	info engine.ToolInfo
}

func (m *Manager) resourceTools() []engine.Tool {
	mk := func(name, desc, params string) engine.Tool {
		return &resourceTool{m: m, info: engine.ToolInfo{Name: name, Label: name, Description: desc, Parameters: json.RawMessage(params), OwnSampling: true}}
	}
	return []engine.Tool{
		mk(ListResourcesTool, "List the resources that MCP servers offer: files, schemas and other data a server shares as context. Use them before searching elsewhere.", listParams),
		mk(ListResourceTemplatesTool, "List the resource templates of MCP servers: URI templates for resources that take parameters and are not listed one by one.", listParams),
		mk(ReadResourceTool, "Read one resource of an MCP server by its server name and URI.", readParams),
	}
}

func (t *resourceTool) Info() engine.ToolInfo { return t.info }

// Annotations mark the resource tools read-only.
func (t *resourceTool) Annotations() jsonx.Object {
	return jsonx.Object{{Key: "readOnlyHint", Value: true}}
}

var mcpAppMime = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i);\s*profile\s*=\s*"?mcp-app"?`) })

func (t *resourceTool) Execute(ctx context.Context, call engine.ToolCall, _ func(engine.ToolResult)) (engine.ToolResult, error) {
	var args map[string]any
	_ = json.Unmarshal(call.Args, &args)
	str := func(k string) (string, error) {
		v, ok := args[k]
		if !ok || v == nil {
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("%s must be a string", k)
		}
		return strings.TrimSpace(s), nil
	}
	server, err := str("server")
	if err != nil {
		return engine.ErrorResult(err.Error()), nil
	}
	// The resource tools see every server, so they wait for those still
	// connecting at startup, as the reference does.
	t.m.WaitStarted(ctx)
	switch t.info.Name {
	case ReadResourceTool:
		uri, err := str("uri")
		if err == nil && server == "" {
			err = errors.New("server must be provided")
		}
		if err == nil && uri == "" {
			err = errors.New("uri must be provided")
		}
		if err != nil {
			return engine.ErrorResult(err.Error()), nil
		}
		return t.read(ctx, server, uri)
	case ListResourcesTool:
		cursor, err := str("cursor")
		if err != nil {
			return engine.ErrorResult(err.Error()), nil
		}
		return t.list(ctx, server, cursor, "resources", "resources/list")
	default:
		cursor, err := str("cursor")
		if err != nil {
			return engine.ErrorResult(err.Error()), nil
		}
		return t.list(ctx, server, cursor, "resourceTemplates", "resources/templates/list")
	}
}

// findServer is the connection of a server with resources.
func (t *resourceTool) findServer(name string) (*Conn, error) {
	conns := t.m.resourceConns()
	var names []string
	for _, c := range conns {
		if c.Server.Name == name {
			return c, nil
		}
		names = append(names, c.Server.Name)
	}
	msg := fmt.Sprintf("MCP server %q has no resources", name)
	if len(names) > 0 {
		msg += ". Servers with resources: " + strings.Join(names, ", ")
	}
	return nil, errors.New(msg)
}

// page requests one page of a listing and returns its raw result.
func page(ctx context.Context, c *Conn, method, cursor string) (json.RawMessage, error) {
	raws, err := c.Request(ctx, func(ctx context.Context, s *sdk.ClientSession) error {
		var err error
		switch method {
		case "resources/list":
			_, err = s.ListResources(ctx, &sdk.ListResourcesParams{Cursor: cursor})
		default:
			_, err = s.ListResourceTemplates(ctx, &sdk.ListResourceTemplatesParams{Cursor: cursor})
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(raws) == 0 {
		return nil, fmt.Errorf("%s: no result", method)
	}
	return raws[len(raws)-1], nil
}

// items reads the listed items of a page (without _meta and icons, and
// without MCP Apps resources, which pi does not render) as
// {server, ...item}, and the page's nextCursor.
func items(server string, raw json.RawMessage, key string) ([]jsonx.Object, string, error) {
	v, err := jsonx.Decode(raw)
	if err != nil {
		return nil, "", err
	}
	o, _ := v.(jsonx.Object)
	next, _ := o.Get("nextCursor")
	nextStr, _ := next.(string)
	list, _ := o.Get(key)
	arr, _ := list.([]any)
	var out []jsonx.Object
	for _, it := range arr {
		item, ok := it.(jsonx.Object)
		if !ok {
			continue
		}
		u, _ := item.Get("uri")
		if u == nil {
			u, _ = item.Get("uriTemplate")
		}
		us, _ := u.(string)
		mt, _ := item.Get("mimeType")
		mts, _ := mt.(string)
		if strings.HasPrefix(us, "ui://") || mcpAppMime().MatchString(mts) {
			continue
		}
		row := jsonx.Object{{Key: "server", Value: server}}
		for _, f := range item {
			if f.Key != "_meta" && f.Key != "icons" && f.Key != "server" {
				row = row.Set(f.Key, f.Value)
			}
		}
		out = append(out, row)
	}
	return out, nextStr, nil
}

func (t *resourceTool) list(ctx context.Context, server, cursor, key, method string) (engine.ToolResult, error) {
	if server != "" {
		c, err := t.findServer(server)
		if err != nil {
			return engine.ErrorResult(err.Error()), nil
		}
		raw, err := page(ctx, c, method, cursor)
		if err != nil {
			return engine.ErrorResult(err.Error()), nil
		}
		rows, next, err := items(c.Server.Name, raw, key)
		if err != nil {
			return engine.ErrorResult(err.Error()), nil
		}
		payload := jsonx.Object{{Key: "server", Value: c.Server.Name}, {Key: key, Value: rowsValue(rows)}}
		if next != "" {
			payload = payload.Set("nextCursor", next)
		}
		return jsonResult(t.info.Name, c.Server.Name, payload)
	}
	if cursor != "" {
		return engine.ErrorResult("cursor can only be used when a server is specified"), nil
	}
	conns := t.m.resourceConns()
	sort.Slice(conns, func(i, j int) bool { return conns[i].Server.Name < conns[j].Server.Name })
	type res struct {
		rows []jsonx.Object
		err  error
	}
	results := make([]res, len(conns))
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cur := ""
			for {
				raw, err := page(ctx, c, method, cur)
				if err != nil {
					results[i].err = err
					return
				}
				rows, next, err := items(c.Server.Name, raw, key)
				if err != nil {
					results[i].err = err
					return
				}
				results[i].rows = append(results[i].rows, rows...)
				if next == "" {
					return
				}
				cur = next
			}
		}()
	}
	wg.Wait()
	var all []jsonx.Object
	var errs []any
	for i, r := range results {
		if r.err != nil {
			errs = append(errs, jsonx.Object{{Key: "server", Value: conns[i].Server.Name}, {Key: "error", Value: r.err.Error()}})
			continue
		}
		all = append(all, r.rows...)
	}
	payload := jsonx.Object{{Key: key, Value: rowsValue(all)}}
	if len(errs) > 0 {
		payload = payload.Set("errors", errs)
	}
	return jsonResult(t.info.Name, "", payload)
}

func rowsValue(rows []jsonx.Object) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		out[i] = r
	}
	return out
}

func (t *resourceTool) read(ctx context.Context, server, uri string) (engine.ToolResult, error) {
	c, err := t.findServer(server)
	if err != nil {
		return engine.ErrorResult(err.Error()), nil
	}
	raws, err := c.Request(ctx, func(ctx context.Context, s *sdk.ClientSession) error {
		_, err := s.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		return err
	})
	if err != nil {
		return engine.ErrorResult(err.Error()), nil
	}
	if len(raws) == 0 {
		return engine.ErrorResult("resources/read: no result"), nil
	}
	var r struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(raws[len(raws)-1], &r); err != nil {
		return engine.ErrorResult(err.Error()), nil
	}
	var content []engine.Content
	var contents []any
	for _, raw := range r.Contents {
		var rb resourceBlock
		if err := json.Unmarshal(raw, &rb); err != nil {
			continue
		}
		if len(r.Contents) > 1 {
			content = append(content, engine.TextContent(rb.URI+":"))
		}
		content = append(content, resourceContent(rb))
		contents = append(contents, raw)
	}
	if len(content) == 0 {
		content = []engine.Content{engine.TextContent(fmt.Sprintf("Resource %s is empty.", uri))}
	}
	if contents == nil {
		contents = []any{}
	}
	content, full := limitContent(content)
	payload := jsonx.Object{{Key: "server", Value: c.Server.Name}, {Key: "uri", Value: uri}, {Key: "contents", Value: contents}}
	sc, err := jsonx.Marshal(payload)
	if err != nil {
		return engine.ToolResult{}, err
	}
	return engine.ToolResult{Content: content, Details: detailsJSON(c.Server.Name, ReadResourceTool, full), StructuredContent: sc}, nil
}

func detailsJSON(server, tool, full string) json.RawMessage {
	b := jsonx.NewBuilder().Set("server", server).Set("tool", tool)
	if full != "" {
		b.Set("fullOutputPath", full)
	}
	d, _ := b.Bytes()
	return d
}

// jsonResult is a listing as the model sees it (its JSON, within the
// output limit) and as scripts see it (the payload itself).
func jsonResult(tool, server string, payload jsonx.Object) (engine.ToolResult, error) {
	b, err := jsonx.Marshal(payload)
	if err != nil {
		return engine.ToolResult{}, err
	}
	content, full := limitContent([]engine.Content{engine.TextContent(string(b))})
	return engine.ToolResult{Content: content, Details: detailsJSON(server, tool, full), StructuredContent: b}, nil
}
