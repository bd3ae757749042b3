package jsruntime

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/prompts"
)

// Sub-agents: the coding-agent package's DefaultResourceLoader and
// createAgentSession (hostjs/pi_internal_sdk_agent.js) let an extension
// run another agent in process, as @tintinweb/pi-subagents's Agent tool
// does. The agent itself (settings, models, extensions, tools, system
// prompt, session store) is assembled by the embedder, the module root,
// which implements SubAgentHost: jsruntime cannot import it.

// SubAgentHost builds in-process agents for createAgentSession.
type SubAgentHost interface {
	// PrepareSubAgent reads what a DefaultResourceLoader's reload reads
	// for spec (settings, trust, models, resources) and discovers the
	// extensions it would load; nothing is loaded yet.
	PrepareSubAgent(ctx context.Context, spec SubAgentSpec) (SubAgentDraft, error)
}

// SubAgentSpec is a DefaultResourceLoader's options, as far as pi-go
// honours them.
type SubAgentSpec struct {
	Cwd, AgentDir string
	// NoExtensions turns discovery off; ExtensionPaths are loaded anyway
	// (additionalExtensionPaths).
	NoExtensions   bool
	ExtensionPaths []string
	// SkillPaths and PromptPaths are additional skill and template paths.
	SkillPaths, PromptPaths                     []string
	NoSkills, NoPromptTemplates, NoContextFiles bool
	// SystemPrompt replaces the discovered SYSTEM.md (nil keeps it);
	// AppendSystemPrompt replaces APPEND_SYSTEM.md (nil keeps it, an
	// empty list drops it).
	SystemPrompt       *string
	AppendSystemPrompt []string
	AppendSet          bool
	// Settings are the layers of a SettingsManager that no settings file
	// backs (SettingsManager.inMemory): {"global": {…}, "project": {…}};
	// nil reads the files, as SettingsManager.create does.
	Settings *SubAgentSettings
}

// SubAgentSettings are a SettingsManager's two layers.
type SubAgentSettings struct {
	Global  map[string]any `json:"global"`
	Project map[string]any `json:"project"`
}

// SubAgentDraft is a prepared sub-agent: its extensions are loaded by
// LoadExtensions, its session starts with Start.
type SubAgentDraft interface {
	// ExtensionPaths are the discovered extensions, in load order.
	ExtensionPaths() []string
	// LoadExtensions loads the extensions of paths (those of
	// ExtensionPaths an extensionsOverride kept) and lists what each
	// registered.
	LoadExtensions(ctx context.Context, paths []string) ([]SubAgentExtension, error)
	// Start starts the agent's session.
	Start(ctx context.Context, opts SubAgentStart) (SubAgent, error)
	// Close releases a draft that never started.
	Close()
}

// SubAgentExtension is one loaded extension of a sub-agent.
type SubAgentExtension struct {
	Path     string   `json:"path"`
	Tools    []string `json:"tools"`
	Commands []string `json:"commands"`
	Flags    []string `json:"flags"`
}

// SubAgentStart is createAgentSession's choice of model, tools and store.
type SubAgentStart struct {
	// Provider and Model name the model ("" for the settings' default).
	Provider, Model string
	Thinking        string
	// Tools is the allowlist of tool names (nil: the default tools);
	// NoTools starts with none, NoBuiltinTools with no built-in one;
	// ExcludeTools are left out.
	Tools          []string
	NoTools        bool
	NoBuiltinTools bool
	ExcludeTools   []string
	// Store is the SessionManager's store; nil makes a new persistent
	// session, as the reference's default SessionManager does.
	Store engine.Store
	// InMemory keeps the session in memory when Store is nil.
	InMemory bool
	// Settings replace the loader's settings (createAgentSession's own
	// in-memory settingsManager); nil keeps them.
	Settings *SubAgentSettings
}

// SubAgent is a running in-process agent (the SDK's AgentSession).
type SubAgent interface {
	// Session is the agent's current engine session: its state, model,
	// transcript and tools.
	Session() *engine.Session
	// Prompt sends a prompt, as typed (templates and commands expand),
	// and waits until the agent settles.
	Prompt(ctx context.Context, text string) error
	Steer(ctx context.Context, text string) (string, error)
	FollowUp(ctx context.Context, text string) (string, error)
	// Abort stops the current run and waits until the agent is idle.
	Abort()
	Subscribe(fn func(engine.Event)) (unsubscribe func())
	// FindModel is a model of the agent's registry, nil when unknown.
	FindModel(provider, id string) *engine.Model
	// SessionStats is get_session_stats's data.
	SessionStats() json.RawMessage
	SetSessionName(name string) error
	// BindExtensions announces the session to the agent's extensions
	// (session_start), which the SDK leaves to bindExtensions.
	BindExtensions()
	Close()
}

// subAgents are one runtime's drafts and agents, by handle.
type subAgents struct {
	mu     sync.Mutex
	next   int
	drafts map[int]SubAgentDraft
	agents map[int]*runningSubAgent
}

type runningSubAgent struct {
	agent SubAgent
	unsub func()
	// seq counts the agent's events as they happen. Events reach JS
	// later, on the loop, so a listener gets those numbered after its
	// subscribe and up to its unsubscribe, as if they had been
	// delivered synchronously, as the reference delivers them.
	seq atomic.Int64
}

// installSubAgents backs the SDK's sub-agent classes; without a
// SubAgentHost (tests, the bare runtime) they fail with a clear error.
func (a *API) installSubAgents(r *Runtime) {
	host := a.opts.SubAgents
	if host == nil || r.host == nil {
		return
	}
	vm := r.vm
	s := &subAgents{drafts: map[int]SubAgentDraft{}, agents: map[int]*runningSubAgent{}}
	// async runs fn off the loop and settles a promise with its JSON.
	async := func(fn func(ctx context.Context) (any, error)) goja.Value {
		promise, resolve, reject := vm.NewPromise()
		settle := r.loop.Reserve()
		go func() {
			v, err := fn(context.Background())
			var out []byte
			if err == nil && v != nil {
				out, err = engine.MarshalJSON(v)
			}
			settle(func(vm *goja.Runtime) {
				if err != nil {
					_ = reject(vm.NewGoError(err))
					return
				}
				if out == nil {
					_ = resolve(goja.Undefined())
					return
				}
				_ = resolve(vm.ToValue(string(out)))
			})
		}()
		return vm.ToValue(promise)
	}
	draft := func(h int) (SubAgentDraft, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		d, ok := s.drafts[h]
		if !ok {
			return nil, errors.New("DefaultResourceLoader: the loader was already used by a session or disposed")
		}
		return d, nil
	}
	agent := func(h int) SubAgent {
		s.mu.Lock()
		defer s.mu.Unlock()
		if ra, ok := s.agents[h]; ok {
			return ra.agent
		}
		panic(vm.NewTypeError("AgentSession: the session was disposed"))
	}
	_ = r.host.Set("sdkAgentPrepare", func(specJSON string) goja.Value {
		var spec SubAgentSpec
		if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
			panic(vm.NewTypeError("DefaultResourceLoader: " + err.Error()))
		}
		return async(func(ctx context.Context) (any, error) {
			d, err := host.PrepareSubAgent(ctx, spec)
			if err != nil {
				return nil, err
			}
			s.mu.Lock()
			s.next++
			h := s.next
			s.drafts[h] = d
			s.mu.Unlock()
			paths := d.ExtensionPaths()
			if paths == nil {
				paths = []string{}
			}
			return ordered{{"handle", h}, {"paths", paths}}, nil
		})
	})
	_ = r.host.Set("sdkAgentLoad", func(h int, pathsJSON string) goja.Value {
		var paths []string
		_ = json.Unmarshal([]byte(pathsJSON), &paths)
		return async(func(ctx context.Context) (any, error) {
			d, err := draft(h)
			if err != nil {
				return nil, err
			}
			exts, err := d.LoadExtensions(ctx, paths)
			if err != nil {
				return nil, err
			}
			if exts == nil {
				exts = []SubAgentExtension{}
			}
			return exts, nil
		})
	})
	// sdkAgentStart(handle, options, store, onEvent) starts the agent and
	// resolves with its handle; every event of the agent reaches onEvent
	// as JSON, in order, on the loop.
	_ = r.host.Set("sdkAgentStart", func(h int, optsJSON string, store goja.Value, onEvent goja.Callable) goja.Value {
		var o SubAgentStart
		if err := json.Unmarshal([]byte(optsJSON), &o); err != nil {
			panic(vm.NewTypeError("createAgentSession: " + err.Error()))
		}
		if store != nil && !goja.IsUndefined(store) && !goja.IsNull(store) {
			st, ok := store.Export().(engine.Store)
			if !ok {
				panic(vm.NewTypeError("createAgentSession: sessionManager is not a SessionManager of this runtime"))
			}
			o.Store = st
		}
		return async(func(ctx context.Context) (any, error) {
			d, err := draft(h)
			if err != nil {
				return nil, err
			}
			s.mu.Lock()
			delete(s.drafts, h)
			s.mu.Unlock()
			ag, err := d.Start(ctx, o)
			if err != nil {
				d.Close()
				return nil, err
			}
			ra := &runningSubAgent{agent: ag}
			ra.unsub = ag.Subscribe(func(e engine.Event) {
				n := ra.seq.Add(1)
				b, err := engine.AppendEvent(nil, e)
				if err != nil {
					return
				}
				r.loop.RunOnLoop(func(vm *goja.Runtime) { _, _ = onEvent(goja.Undefined(), vm.ToValue(string(b)), vm.ToValue(n)) })
			})
			s.mu.Lock()
			s.next++
			id := s.next
			s.agents[id] = ra
			s.mu.Unlock()
			return id, nil
		})
	})
	_ = r.host.Set("sdkAgentRun", func(h int, op, text string) goja.Value {
		ag := agent(h)
		return async(func(ctx context.Context) (any, error) {
			switch op {
			case "prompt":
				return nil, ag.Prompt(ctx, text)
			case "steer":
				return ag.Steer(ctx, text)
			case "followUp":
				return ag.FollowUp(ctx, text)
			case "abort":
				ag.Abort()
				return nil, nil
			case "bind":
				ag.BindExtensions()
				return nil, nil
			case "waitIdle":
				return nil, ag.Session().WaitIdle(ctx)
			case "setModel":
				var ref struct{ Provider, ID string }
				_ = json.Unmarshal([]byte(text), &ref)
				m := ag.FindModel(ref.Provider, ref.ID)
				if m == nil {
					return nil, errors.New("Model not found: " + ref.Provider + "/" + ref.ID)
				}
				return nil, ag.Session().SetModel(m)
			case "compact":
				res, err := ag.Session().Compact(ctx, text)
				if err != nil {
					return nil, err
				}
				return res, nil
			}
			return nil, errors.New("AgentSession: unknown operation " + op)
		})
	})
	// sdkAgentState is the agent's state as the AgentSession getters
	// read it: get_state's fields, the transcript, the system prompt and
	// the active tools.
	_ = r.host.Set("sdkAgentState", func(h int) string {
		sess := agent(h).Session()
		tools := []string{}
		infos := []ordered{}
		for _, t := range sess.Tools() {
			in := t.Info()
			tools = append(tools, in.Name)
			infos = append(infos, ordered{{"name", in.Name}, {"description", in.Description}, {"parameters", in.Parameters}})
		}
		msgs := sess.Messages()
		if msgs == nil {
			msgs = []*engine.Message{}
		}
		b, err := engine.MarshalJSON(ordered{
			{"state", sess.State()}, {"isIdle", sess.IsIdle()}, {"systemPrompt", sess.SystemPromptText()},
			{"tools", tools}, {"toolInfos", infos}, {"messages", msgs},
		})
		if err != nil {
			panic(vm.NewGoError(err))
		}
		return string(b)
	})
	_ = r.host.Set("sdkAgentSetThinking", func(h int, level string) {
		agent(h).Session().SetThinkingLevel(engine.ThinkingLevel(level))
	})
	// sdkAgentSeq is the number of the agent's latest event.
	_ = r.host.Set("sdkAgentSeq", func(h int) int64 {
		s.mu.Lock()
		defer s.mu.Unlock()
		if ra, ok := s.agents[h]; ok {
			return ra.seq.Load()
		}
		return 0
	})
	_ = r.host.Set("sdkAgentStats", func(h int) string { return string(agent(h).SessionStats()) })
	// sdkAgentSystemFiles are the SYSTEM.md and APPEND_SYSTEM.md a loader
	// for cwd finds, under this agent's project trust.
	_ = r.host.Set("sdkAgentSystemFiles", func(cwd, agentDir string) string {
		system, appendParts, _ := prompts.LoadSystemFiles(absDir(agentDir), absDir(cwd), a.opts.Trusted)
		var sys any
		if system != "" {
			sys = system
		}
		if appendParts == nil {
			appendParts = []string{}
		}
		b, _ := engine.MarshalJSON(ordered{{"system", sys}, {"append", appendParts}})
		return string(b)
	})
	_ = r.host.Set("sdkAgentSetName", func(h int, name string) {
		if err := agent(h).SetSessionName(name); err != nil {
			panic(vm.NewGoError(err))
		}
	})
	// sdkAgentDispose ends an agent or drops a draft that never started.
	_ = r.host.Set("sdkAgentDispose", func(h int, isDraft bool) {
		s.mu.Lock()
		var d SubAgentDraft
		var ra *runningSubAgent
		if isDraft {
			d = s.drafts[h]
			delete(s.drafts, h)
		} else {
			ra = s.agents[h]
			delete(s.agents, h)
		}
		s.mu.Unlock()
		go func() {
			// Closing waits for the agent's run to end; never on the loop.
			if d != nil {
				d.Close()
			}
			if ra != nil {
				ra.unsub()
				ra.agent.Close()
			}
		}()
	})
}
