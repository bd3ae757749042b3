#!/usr/bin/env python3
"""A tiny stdio MCP server (newline-delimited JSON-RPC 2.0): tool ping
answers PONG:<text>; one text resource."""
import json, sys

TOOLS = [{"name": "ping", "description": "Reply with PONG and the text",
          "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
          "annotations": {"readOnlyHint": True}}]

def reply(id_, result=None, error=None):
    msg = {"jsonrpc": "2.0", "id": id_}
    if error is not None:
        msg["error"] = error
    else:
        msg["result"] = result
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()

for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    msg = json.loads(line)
    method, id_ = msg.get("method"), msg.get("id")
    if id_ is None:
        continue
    params = msg.get("params") or {}
    if method == "initialize":
        reply(id_, {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                    "capabilities": {"tools": {}, "resources": {}},
                    "serverInfo": {"name": "echo", "version": "1.0.0"}})
    elif method == "tools/list":
        reply(id_, {"tools": TOOLS})
    elif method == "tools/call":
        args = params.get("arguments") or {}
        reply(id_, {"content": [{"type": "text", "text": "PONG:" + str(args.get("text", ""))}], "isError": False})
    elif method == "resources/list":
        reply(id_, {"resources": [{"uri": "file:///a.txt", "name": "a", "mimeType": "text/plain"}]})
    elif method == "resources/templates/list":
        reply(id_, {"resourceTemplates": []})
    elif method == "resources/read":
        reply(id_, {"contents": [{"uri": params.get("uri"), "mimeType": "text/plain", "text": "hello a"}]})
    elif method == "ping":
        reply(id_, {})
    else:
        reply(id_, error={"code": -32601, "message": "Method not found: " + str(method)})
