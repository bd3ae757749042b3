// Package codemode holds the reference's built-in extensions
// builtin:codemode and builtin:tool-search: the codemode tool, which runs
// a model-written JavaScript script that calls other tools, and the
// tool_search tool, which declares deferred tools that match a query.
//
// # Scripts
//
// Each script runs in its own goja runtime on its own goroutine, with no
// host object but the documented globals: tools.<name>(args) (async,
// validated like a model's call), text, image, console (captured into the
// result, never printed), return, exit, store/load, ALL_TOOLS,
// searchTools, describeTool, describeNamespace, and models, whose methods
// reject with an error naming them (classifier and image models are not
// runnable from scripts in this build). Limits: the "// @options:" first
// line (max_output_tokens, default 10000, and timeout_ms, enforced with
// goja's Interrupt so a busy loop stops too), 16777216 characters or
// 100000 output calls, codemode.inlineBudget for the description's
// listing, and PI_CODEMODE_MAX_WORKERS scripts alive at once per process
// (default 2, waiters served in arrival order, at most 60 s or until
// timeout_ms). The VM's memory is not capped (the reference's QuickJS
// has 256 MB); a script that holds too much grows the process.
//
// A script's tool calls run through engine.ExecuteNested: validated, seen
// (and possibly blocked) by the extensions' tool_call and tool_result
// handlers, and announced with tool_execution_start/end events whose
// toolCallId is "<codemode call id>/<n>" and parentToolCallId the
// codemode call's. details.calls lists them (id, name, args, status,
// durationMs) in the result and in each update.
//
// store() writes are recorded only when a script succeeds, as one
// "codemode-store" custom entry {"set": {...}, "delete": [...]} in the
// session (Config.Store); load() replays the current branch's entries.
//
// # The seam for tools that are not declared
//
// A Registry holds tools callable from scripts without being declared to
// the model, each with an Exposure:
//
//   - ExposureCodemode: listed in the codemode description (within the
//     inline budget), as an extension tool with exposure "codemode";
//   - ExposureDeferred: not listed, found by searchTools(), describeTool(),
//     ALL_TOOLS and tool_search, which declares its matches for the next
//     model call. MCP tools of the "codemode" and "deferred" server
//     exposures are both registered this way.
//
// Any Go code adds tools with Registry.Add(Entry{Tool, Exposure,
// Namespace, Returns, Activate}) and withdraws them with Remove, or
// registers a source with AddSource(func() []Entry) that is read at each
// call (and calls Notify when its list changes); the tools read the
// registry at each call, so a tool added while a session runs is
// callable from the next script. Entry.Activate names the tool the
// agent turns on when the entry appears (Name for an MCP server with
// codemode exposure, SearchName for one with deferred exposure). A tool
// whose result has StructuredContent resolves to it in scripts (an MCP
// tool's CallToolResult, isError included); Entry.Returns is its
// TypeScript type for the declaration. Direct and hidden tools are not
// registry entries: direct ones are declared like any tool (scripts can
// call every declared tool), hidden ones are not registered at all.
package codemode
