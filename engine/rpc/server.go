package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/session"
)

// Options configure a Server.
type Options struct {
	Out        *Writer
	Controller Controller
	// Stderr receives diagnostics; nil discards them.
	Stderr io.Writer
}

// Server is the RPC protocol: it reads commands, answers each exactly
// once and forwards every event of the current session.
type Server struct {
	// OnUIResponse receives extension_ui_response records; they are never
	// answered.
	OnUIResponse func(raw json.RawMessage)
	// ExportHTML writes the HTML export of a session and returns its path.
	ExportHTML func(header engine.Header, entries []*engine.Entry, outPath string) (string, error)
	// Compact runs a manual compaction and returns the response data.
	Compact func(ctx context.Context, s *engine.Session, customInstructions string) (any, error)
	// IsCompacting reports whether s is compacting (get_state).
	IsCompacting func(s *engine.Session) bool
	// CancelDialogs resolves every extension dialog still waiting for an
	// extension_ui_response; called at the end of input, when no answer
	// can come, so the commands behind one can finish and be answered.
	CancelDialogs func()

	opts Options
	ctl  Controller
	out  *Writer

	mu    sync.Mutex
	unsub func()

	// evMu serializes event writes. A prompt's response is not held
	// against them: the engine calls back where it goes among the events
	// (engine.PromptOptions.OnPreflight).
	evMu sync.Mutex

	bashMu   sync.Mutex
	bashes   map[int]context.CancelFunc
	nextBash int

	wg  sync.WaitGroup
	seq sequencer

	// lastTurn is the latest prompt's place in arrival order (reader
	// goroutine only).
	lastTurn *engine.ArrivalTurn
}

// NewServer returns a server over opts.Controller's session.
func NewServer(opts Options) *Server {
	s := &Server{opts: opts, ctl: opts.Controller, out: opts.Out, bashes: map[int]context.CancelFunc{}}
	s.Compact = func(ctx context.Context, sess *engine.Session, instructions string) (any, error) {
		res, err := sess.Compact(ctx, instructions)
		if err != nil {
			return nil, err
		}
		return res, nil
	}
	s.IsCompacting = (*engine.Session).IsCompacting
	if s.opts.Stderr == nil {
		s.opts.Stderr = io.Discard
	}
	// Every event of the active session, and of each that replaces it,
	// is forwarded.
	s.unsub = s.ctl.Subscribe(s.onEvent)
	return s
}

// current returns the current session and its store.
func (s *Server) current() (*engine.Session, *session.File) { return s.ctl.Current() }

func (s *Server) onEvent(e engine.Event) {
	s.evMu.Lock()
	defer s.evMu.Unlock()
	// Only streamed deltas wait in the writer's batch; every other event
	// (turn_start before the next request, tool_execution_start before a
	// tool runs) is on stdout when this returns, after the deltas before
	// it, as with the reference's synchronous writes.
	_ = s.out.WriteEvent(e)
}

// Serve reads records from in until EOF or ctx ends. At EOF it stops the
// current run quietly (no further events), waits briefly for running
// commands and returns nil; the caller exits 0.
func (s *Server) Serve(ctx context.Context, in io.Reader) error {
	lr := NewLineReader(in)
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		for {
			line, err := lr.Next()
			if err != nil {
				readErr <- err
				return
			}
			// The reader reuses its buffer; each record gets its own copy.
			lines <- append([]byte(nil), line...)
		}
	}()
	for {
		select {
		case <-ctx.Done():
			s.shutdown()
			return nil
		case err := <-readErr:
			s.shutdown()
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("read stdin: %w", err)
		case line := <-lines:
			s.HandleLine(ctx, line)
		}
	}
}

// shutdown answers every command already read, then detaches from the
// session so nothing more is printed, aborts the run and user bash
// commands, and waits a little for them.
func (s *Server) shutdown() {
	// Every accepted command is answered before exit. The quick ones are
	// queued in order; they finish unless one is stuck, so the wait ends
	// when the queue is empty or nothing has finished for a while (an
	// extension handler that never returns).
	if s.CancelDialogs != nil {
		s.CancelDialogs()
	}
	s.seq.waitIdle(shutdownStall)
	s.mu.Lock()
	unsub := s.unsub
	s.unsub = nil
	s.mu.Unlock()
	sess, _ := s.current()
	if unsub != nil {
		unsub()
	}
	s.abortBash()
	ctx, cancel := context.WithTimeout(context.Background(), shutdownStall)
	defer cancel()
	if sess != nil {
		_ = sess.Close(ctx)
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// shutdownStall is how long shutdown waits for a command that makes no
// progress.
const shutdownStall = 2 * time.Second

// HandleLine processes one input record. Commands that wait (prompting,
// abort, bash, compaction, session switches) run in their own goroutine
// like the reference's concurrent handlers; the rest answer in arrival
// order. HandleLine itself never blocks on a handler.
func (s *Server) HandleLine(ctx context.Context, line []byte) {
	cmd, err := Decode(line)
	var h handler
	switch {
	case err != nil:
		var de *DecodeError
		if !errors.As(err, &de) {
			return
		}
		h = handler{fn: func(context.Context, *Server, *Command) *Response { return &de.Response }}
		cmd = &Command{Type: "parse"}
	case cmd.Type == "extension_ui_response":
		if s.OnUIResponse != nil {
			s.OnUIResponse(cmd.Raw)
		}
		return
	default:
		var known bool
		if h, known = handlers[cmd.Type]; !known {
			h = handler{fn: func(_ context.Context, _ *Server, cmd *Command) *Response {
				return fail(cmd, fmt.Errorf("Unknown command: %s", cmd.Type))
			}}
		}
	}
	s.wg.Add(1)
	if !h.async {
		// Quick commands answer in arrival order, but off the reader's
		// goroutine: a hook they trigger may wait for an
		// extension_ui_response that only the reader can deliver.
		s.seq.run(func() {
			defer s.wg.Done()
			s.run(ctx, cmd, h.fn)
		}, boundedCommands[cmd.Type])
		return
	}
	if cmd.Type == "prompt" {
		// Prompts start their extension commands in arrival order, as the
		// reference's handlers begin in the order the lines came
		// (engine.ArrivalTurn); released when the handler returns at the
		// latest.
		t := engine.NextArrivalTurn(s.lastTurn)
		s.lastTurn = t
		ctx = engine.WithArrivalTurn(ctx, t)
		go func() {
			defer s.wg.Done()
			defer t.Release()
			s.run(ctx, cmd, h.fn)
		}()
		return
	}
	go func() {
		defer s.wg.Done()
		s.run(ctx, cmd, h.fn)
	}()
}

// sequencer runs functions one at a time in the order they were given, on
// one goroutine that lives while there is work. (One goroutine per
// command waiting on a shared condition variable woke every waiter at
// each turn: 10,000 pipelined commands cost quadratic time.)
type sequencer struct {
	mu      sync.Mutex
	queue   []seqItem
	running bool
	// bounded says the running function is one that always finishes
	// (see boundedCommands), so waitIdle waits for it however long it
	// takes.
	bounded bool
	// idle is closed when the queue empties; progress gets a token each
	// time a function returns (for waitIdle).
	idle     chan struct{}
	progress chan struct{}
}

type seqItem struct {
	f       func()
	bounded bool
}

// run queues f; bounded marks a function that always finishes.
func (q *sequencer) run(f func(), bounded bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.queue = append(q.queue, seqItem{f, bounded})
	if !q.running {
		q.running = true
		q.idle = make(chan struct{})
		if q.progress == nil {
			q.progress = make(chan struct{}, 1)
		}
		go q.loop()
	}
}

func (q *sequencer) loop() {
	for {
		q.mu.Lock()
		if len(q.queue) == 0 {
			q.running = false
			q.queue = nil
			close(q.idle)
			q.mu.Unlock()
			return
		}
		item := q.queue[0]
		q.queue[0] = seqItem{}
		q.queue = q.queue[1:]
		q.bounded = item.bounded
		progress := q.progress
		q.mu.Unlock()
		item.f()
		select {
		case progress <- struct{}{}:
		default:
		}
	}
}

// waitIdle waits until the queue is empty, or until no queued function
// has finished for stall while the running one may be stuck (one that
// waits on an extension); a bounded one is waited for whatever it takes.
// It reports whether the queue emptied.
func (q *sequencer) waitIdle(stall time.Duration) bool {
	t := time.NewTimer(stall)
	defer t.Stop()
	for {
		q.mu.Lock()
		running, idle, progress := q.running, q.idle, q.progress
		q.mu.Unlock()
		if !running {
			return true
		}
		select {
		case <-idle:
		case <-progress:
			t.Reset(stall)
		case <-t.C:
			q.mu.Lock()
			bounded := q.running && q.bounded
			q.mu.Unlock()
			if !bounded {
				return false
			}
			t.Reset(stall)
		}
	}
}

// boundedCommands are the in-order commands that only read or set the
// session's own state, never waiting on an extension or a provider, so
// they always finish: at EOF they are answered however long they take
// (a get_messages of a 200 MB session takes seconds), while a command
// stuck in an extension's handler is given up after shutdownStall.
var boundedCommands = map[string]bool{
	"clear_queue": true, "get_state": true, "get_messages": true, "get_available_models": true,
	"get_available_thinking_levels": true, "set_steering_mode": true, "set_follow_up_mode": true,
	"set_auto_compaction": true, "set_auto_retry": true, "abort_retry": true, "abort_bash": true,
	"get_session_stats": true, "export_html": true, "get_fork_messages": true, "get_entries": true,
	"get_tree": true, "get_last_assistant_text": true,
}

// run calls a handler and writes its response, turning a panic into a
// failure response so that one bad record never ends the process.
func (s *Server) run(ctx context.Context, cmd *Command, fn handlerFunc) {
	var resp *Response
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(s.opts.Stderr, "rpc: %s handler panicked: %v\n", cmd.Type, r)
				f := Fail(cmd, fmt.Errorf("%v", r))
				resp = &f
			}
		}()
		resp = fn(ctx, s, cmd)
	}()
	if resp != nil {
		_ = s.out.WriteRecord(*resp)
	}
}

// handlerFunc answers one command. It returns the response to write, or
// nil when it wrote the response itself (to order it among events).
type handlerFunc func(ctx context.Context, s *Server, cmd *Command) *Response

type handler struct {
	fn    handlerFunc
	async bool
}

// handlers is every command of the protocol.
var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"prompt":                        {handlePrompt, true},
		"steer":                         {handleSteer, true},
		"follow_up":                     {handleFollowUp, true},
		"abort":                         {handleAbort, true},
		"clear_queue":                   {handleClearQueue, false},
		"new_session":                   {handleNewSession, true},
		"get_state":                     {handleGetState, false},
		"get_messages":                  {handleGetMessages, false},
		"set_model":                     {handleSetModel, false},
		"cycle_model":                   {handleCycleModel, false},
		"get_available_models":          {handleGetAvailableModels, false},
		"set_thinking_level":            {handleSetThinkingLevel, false},
		"cycle_thinking_level":          {handleCycleThinkingLevel, false},
		"get_available_thinking_levels": {handleGetAvailableThinkingLevels, false},
		"set_steering_mode":             {handleSetSteeringMode, false},
		"set_follow_up_mode":            {handleSetFollowUpMode, false},
		"compact":                       {handleCompact, true},
		"set_auto_compaction":           {handleSetAutoCompaction, false},
		"set_auto_retry":                {handleSetAutoRetry, false},
		"abort_retry":                   {handleAbortRetry, false},
		"bash":                          {handleBash, true},
		"abort_bash":                    {handleAbortBash, false},
		"get_session_stats":             {handleGetSessionStats, false},
		"export_html":                   {handleExportHTML, false},
		"switch_session":                {handleSwitchSession, true},
		"fork":                          {handleFork, true},
		"clone":                         {handleClone, true},
		"get_fork_messages":             {handleGetForkMessages, false},
		"get_entries":                   {handleGetEntries, false},
		"get_tree":                      {handleGetTree, false},
		"get_last_assistant_text":       {handleGetLastAssistantText, false},
		"set_session_name":              {handleSetSessionName, false},
		"get_commands":                  {handleGetCommands, false},
	}
}

// Commands lists the protocol's command types (for tests and docs).
func Commands() []string {
	out := make([]string, 0, len(handlers))
	for k := range handlers {
		out = append(out, k)
	}
	return out
}

func ok(cmd *Command, data any) *Response {
	r := OK(cmd, data)
	return &r
}

func okNull(cmd *Command) *Response {
	r := OKNull(cmd)
	return &r
}

func fail(cmd *Command, err error) *Response {
	r := Fail(cmd, err)
	return &r
}

// fields decodes the command's own fields into v (a pointer), with keys
// matched exactly as JSON.parse reads them. A field of the wrong JSON type
// becomes a failure message naming it, instead of a crash.
func fields(cmd *Command, v any) error {
	if err := decodeExact(cmd.Raw, reflect.ValueOf(v).Elem(), nil); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("Invalid %s: expected %s, got %s", te.Field, jsonKind(te.Type), te.Value)
		}
		return fmt.Errorf("Invalid command: %w", err)
	}
	return nil
}

// jsonKind names the JSON type a Go type decodes from, for error messages
// a client can act on.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "JSON value"
		}
		return "array"
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	}
	return t.String()
}
