package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

func usage(in, out int) *engine.Usage {
	return &engine.Usage{Input: in, Output: out, TotalTokens: in + out}
}

type msg = map[string]any

// TestTranscripts drives the server through every command, error cases
// included, and compares the normalised transcripts with golden files.
func TestTranscripts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		opts driverOptions
		run  func(d *driver)
	}{
		{"state_queries", driverOptions{persisted: true}, func(d *driver) {
			d.call(msg{"id": "s1", "type": "get_state"})
			d.call(msg{"id": "m1", "type": "get_messages"})
			d.call(msg{"id": "l1", "type": "get_last_assistant_text"})
			d.call(msg{"id": "st1", "type": "get_session_stats"})
			d.call(msg{"id": "lv1", "type": "get_available_thinking_levels"})
			d.call(msg{"id": "am1", "type": "get_available_models"})
			d.call(msg{"id": "e1", "type": "get_entries"})
			d.call(msg{"id": "t1", "type": "get_tree"})
			d.call(msg{"id": "fm1", "type": "get_fork_messages"})
			d.call(msg{"id": "n1", "type": "set_session_name", "name": "  my\nname  "})
			d.call(msg{"id": "n2", "type": "set_session_name", "name": " \n "})
			d.call(msg{"id": "s2", "type": "get_state"})
			d.call(msg{"id": "x1", "type": "export_html"})
			d.call(msg{"id": "c1", "type": "clone"})
		}},
		{"prompt_flow", driverOptions{persisted: true, turns: []faux.Turn{
			{Thinking: "think", Text: "Hello there.", ChunkSize: 6, Usage: usage(100, 20)},
		}}, func(d *driver) {
			d.call(msg{"id": "p1", "type": "prompt", "message": "Say hello."})
			d.event("agent_settled")
			d.call(msg{"id": "l1", "type": "get_last_assistant_text"})
			d.call(msg{"id": "m1", "type": "get_messages"})
			d.call(msg{"id": "st1", "type": "get_session_stats"})
			entries := d.call(msg{"id": "e1", "type": "get_entries"})
			first := entries["data"].(map[string]any)["entries"].([]any)[0].(map[string]any)["id"].(string)
			d.call(msg{"id": "e2", "type": "get_entries", "since": first})
			d.call(msg{"id": "e3", "type": "get_entries", "since": "nope"})
			d.call(msg{"id": "t1", "type": "get_tree"})
			d.call(msg{"id": "fm1", "type": "get_fork_messages"})
			d.call(msg{"id": "s1", "type": "get_state"})
		}},
		{"framing_errors", driverOptions{}, func(d *driver) {
			d.send("{this is not json")
			d.command("parse")
			d.send("")
			d.command("parse")
			d.send("null")
			d.until("null answer", func(r map[string]any) bool { return r["type"] == "response" })
			d.send("42")
			d.until("42 answer", func(r map[string]any) bool { return r["type"] == "response" })
			d.send(`{"id":"nt"}`)
			d.response("nt")
			d.send(`{"id":7,"type":"get_state"}`)
			d.until("numeric id", func(r map[string]any) bool { return r["id"] == float64(7) })
			d.send(`{"id":"u1","type":"no_such_command"}`)
			d.response("u1")
			d.send(`{"id":"t5","type":5}`)
			d.response("t5")
			d.send(`{"id":"to","type":{"a":1}}`)
			d.response("to")
			d.send(`{"id":"ta","type":["x",1,null]}`)
			d.response("ta")
			d.send("{\"id\":\"crlf\",\"type\":\"get_last_assistant_text\"}\r")
			d.response("crlf")
			d.send(`{"id":"pm","type":"prompt"}`)
			d.response("pm")
			d.send(`{"id":"pt","type":"prompt","message":42}`)
			d.response("pt")
			d.send(`{"id":"bc","type":"bash"}`)
			d.response("bc")
			d.send(`{"id":"sm","type":"set_model","provider":"faux","modelId":"nope"}`)
			d.response("sm")
			d.send(`{"id":"sk","type":"set_model","provider":"nokey","modelId":"locked"}`)
			d.response("sk")
			d.send(`{"id":"fk","type":"fork","entryId":"deadbeef"}`)
			d.response("fk")
			d.send(`{"id":"cl","type":"clone"}`)
			d.response("cl")
			d.send(`{"id":"ex","type":"export_html"}`)
			d.response("ex")
			d.send(`{"id":"co","type":"compact"}`)
			d.response("co")
			d.send(`{"id":"sw","type":"switch_session"}`)
			d.response("sw")
			d.send(`{"id":"tl","type":"set_thinking_level","level":"huge"}`)
			d.response("tl")
			d.send(`{"id":"smu","type":"set_model"}`)
			d.response("smu")
			d.send(`{"id":"es","type":"get_entries","since":5}`)
			d.response("es")
			d.send(`{"type":"extension_ui_response","id":"whatever","value":"x"}`)
			d.send(`{"id":"last","type":"get_state"}`)
			d.response("last")
		}},
		{"models_thinking", driverOptions{}, func(d *driver) {
			d.call(msg{"id": "ct0", "type": "cycle_thinking_level"})
			d.call(msg{"id": "sm", "type": "set_model", "provider": "faux", "modelId": "faux-2"})
			d.call(msg{"id": "lv", "type": "get_available_thinking_levels"})
			d.call(msg{"id": "tl", "type": "set_thinking_level", "level": "high"})
			d.call(msg{"id": "tl2", "type": "set_thinking_level", "level": "high"})
			d.call(msg{"id": "ct", "type": "cycle_thinking_level"})
			d.call(msg{"id": "cm", "type": "cycle_model"})
			d.call(msg{"id": "s", "type": "get_state"})
			d.call(msg{"id": "cm2", "type": "cycle_model"})
		}},
		{"queue_abort", driverOptions{turns: []faux.Turn{
			{Text: "partial", BlockUntilCancel: true},
			{Text: "Second run.", Usage: usage(50, 5)},
			{Text: "Steer answered."},
			{Text: "Follow-up answered."},
		}}, func(d *driver) {
			d.call(msg{"id": "p1", "type": "prompt", "message": "Go slowly."})
			d.until("text delta", func(r map[string]any) bool {
				ev, _ := r["assistantMessageEvent"].(map[string]any)
				return r["type"] == "message_update" && ev["type"] == "text_delta"
			})
			d.call(msg{"id": "p2", "type": "prompt", "message": "Interrupt."})
			d.call(msg{"id": "p3", "type": "prompt", "message": "Queued steer.", "streamingBehavior": "steer"})
			d.call(msg{"id": "f1", "type": "follow_up", "message": "Queued follow-up."})
			d.call(msg{"id": "s1", "type": "get_state"})
			d.call(msg{"id": "a1", "type": "abort"})
			d.call(msg{"id": "s2", "type": "get_state"})
			d.call(msg{"id": "l1", "type": "get_last_assistant_text"})
			d.call(msg{"id": "cq", "type": "clear_queue"})
			d.call(msg{"id": "st", "type": "steer", "message": "Idle steer."})
			d.call(msg{"id": "p4", "type": "prompt", "message": "Again."})
			d.event("agent_settled")
			d.call(msg{"id": "a2", "type": "abort"})
			d.call(msg{"id": "ar", "type": "abort_retry"})
		}},
		{"bash", driverOptions{turns: []faux.Turn{{Text: "Seen."}}}, func(d *driver) {
			d.call(msg{"id": "b1", "type": "bash", "command": "echo hi"})
			d.call(msg{"id": "b2", "type": "bash", "command": "fail 3"})
			d.call(msg{"id": "b3", "type": "bash", "command": "big", "excludeFromContext": true})
			d.sendJSON(msg{"id": "b4", "type": "bash", "command": "block"})
			d.event("bash_execution_update")
			d.sendJSON(msg{"id": "ab", "type": "abort_bash"})
			d.unordered(2)
			d.sendJSON(msg{"type": "bash", "command": "no id"})
			d.command("bash")
			d.call(msg{"id": "m1", "type": "get_messages"})
			d.call(msg{"id": "p1", "type": "prompt", "message": "What ran?"})
			d.event("agent_settled")
			// User bash output reaches the model as user text, except the
			// command excluded from context.
			reqs := d.host.provider.Requests()
			var sent strings.Builder
			for _, m := range reqs[0].Messages {
				sent.WriteString(m.Content.Text() + "\n")
			}
			if !strings.Contains(sent.String(), "Ran `echo hi`\n```\necho hi\n\n```") ||
				!strings.Contains(sent.String(), "Command exited with code 3") || strings.Contains(sent.String(), "Ran `big`") {
				d.t.Errorf("bash executions in the request:\n%s", sent.String())
			}
		}},
		{"images", driverOptions{turns: []faux.Turn{{Text: "A red dot."}}}, func(d *driver) {
			img := msg{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
			d.call(msg{"id": "st", "type": "steer", "message": "And this one.", "images": []any{img}})
			d.call(msg{"id": "p", "type": "prompt", "message": "What is this?", "images": []any{img}})
			d.event("agent_settled")
			d.call(msg{"id": "bad", "type": "prompt", "message": "x", "images": "not a list"})
		}},
		{"no_model", driverOptions{noModel: true}, func(d *driver) {
			d.call(msg{"id": "s", "type": "get_state"})
			d.call(msg{"id": "p", "type": "prompt", "message": "hi"})
			d.call(msg{"id": "st", "type": "get_session_stats"})
		}},
		{"settings", driverOptions{}, func(d *driver) {
			d.call(msg{"id": "ss", "type": "set_steering_mode", "mode": "all"})
			d.call(msg{"id": "sf", "type": "set_follow_up_mode", "mode": "all"})
			d.call(msg{"id": "sc", "type": "set_auto_compaction", "enabled": false})
			d.call(msg{"id": "sr", "type": "set_auto_retry", "enabled": false})
			d.call(msg{"id": "bad", "type": "set_auto_retry", "enabled": "yes"})
			d.call(msg{"id": "s", "type": "get_state"})
			d.host.mu.Lock()
			got := fmt.Sprint(d.host.settings)
			d.host.mu.Unlock()
			if want := "map[compaction.enabled:false followUpMode:all retry.enabled:false steeringMode:all]"; got != want {
				d.t.Errorf("persisted settings = %s, want %s", got, want)
			}
		}},
		{"compaction", driverOptions{persisted: true, turns: []faux.Turn{
			{Text: "One.", Usage: usage(1000, 10)}, {Text: "Two.", Usage: usage(2000, 10)}, {Text: "The summary.", Usage: usage(300, 30)},
		}}, func(d *driver) {
			d.call(msg{"id": "c0", "type": "compact"})
			d.call(msg{"id": "p1", "type": "prompt", "message": "First."})
			d.event("agent_settled")
			d.call(msg{"id": "p2", "type": "prompt", "message": "Second."})
			d.event("agent_settled")
			d.call(msg{"id": "c1", "type": "compact", "customInstructions": "Focus on numbers."})
			d.call(msg{"id": "m1", "type": "get_messages"})
			d.call(msg{"id": "st", "type": "get_session_stats"})
			d.call(msg{"id": "c2", "type": "compact"})
			d.call(msg{"id": "s", "type": "get_state"})
		}},
		{"sessions", driverOptions{persisted: true, turns: []faux.Turn{
			{Text: "One."}, {Text: "Two."},
		}}, func(d *driver) {
			d.call(msg{"id": "x0", "type": "export_html"})
			d.call(msg{"id": "p1", "type": "prompt", "message": "First."})
			d.event("agent_settled")
			d.call(msg{"id": "p2", "type": "prompt", "message": "Second."})
			d.event("agent_settled")
			st := d.call(msg{"id": "s1", "type": "get_state"})
			first := st["data"].(map[string]any)["sessionFile"].(string)
			d.call(msg{"id": "x1", "type": "export_html"})
			d.call(msg{"id": "x2", "type": "export_html", "outputPath": "out.html"})
			fm := d.call(msg{"id": "fm", "type": "get_fork_messages"})
			second := fm["data"].(map[string]any)["messages"].([]any)[1].(map[string]any)["entryId"].(string)
			d.call(msg{"id": "f1", "type": "fork", "entryId": second})
			d.call(msg{"id": "m1", "type": "get_messages"})
			d.call(msg{"id": "c1", "type": "clone"})
			d.call(msg{"id": "s2", "type": "get_state"})
			d.call(msg{"id": "n1", "type": "new_session", "parentSession": first})
			d.call(msg{"id": "s3", "type": "get_state"})
			d.call(msg{"id": "sw", "type": "switch_session", "sessionPath": first})
			d.call(msg{"id": "m2", "type": "get_messages"})
			d.call(msg{"id": "sw2", "type": "switch_session", "sessionPath": d.dir + "/sessions/fresh.jsonl"})
			d.call(msg{"id": "s4", "type": "get_state"})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			d := newDriver(t, c.opts)
			c.run(d)
			d.golden(c.name)
		})
	}
}

// TestCommandsExpansion covers get_commands and the expansion of
// templates and skills in prompt, steer and follow_up, plus the hooks
// other packages plug in.
func TestCommandsExpansion(t *testing.T) {
	t.Parallel()
	desc := "Extension cmd"
	var uiRaw []string
	d := newDriver(t, driverOptions{turns: []faux.Turn{{Text: "ok"}}, persisted: true, tweak: func(s *Server, c *testController, dir string) {
		skillFile := dir + "/SKILL.md"
		writeFile(t, skillFile, "---\nname: greet\ndescription: Greets.\n---\nSay hi politely.\n")
		c.templates = []prompts.Template{{Name: "fix", Description: "Fix it", Content: "Please fix $1 now.", FilePath: dir + "/fix.md",
			SourceInfo: prompts.SourceInfo{Path: dir + "/fix.md", Source: "local", Scope: "user", Origin: "top-level"}}}
		c.skills = []skills.Skill{{Name: "greet", Description: "Greets.", FilePath: skillFile, BaseDir: dir,
			SourceInfo: prompts.SourceInfo{Path: skillFile, Source: "local", Scope: "project", Origin: "top-level"}},
			{Name: "gone", Description: "Missing file.", FilePath: dir + "/missing/SKILL.md", BaseDir: dir + "/missing"}}
		c.commands = func() []prompts.CommandInfo {
			return []prompts.CommandInfo{{Name: "ext", Description: &desc, Source: "extension",
				SourceInfo: &prompts.SourceInfo{Path: "/ext.ts", Source: "cli", Scope: "temporary", Origin: "top-level"}}}
		}
		s.OnUIResponse = func(raw json.RawMessage) { uiRaw = append(uiRaw, string(raw)) }
		s.ExportHTML = func(h engine.Header, entries []*engine.Entry, out string) (string, error) {
			return "", errors.New("export failed on purpose")
		}
		s.Compact = func(ctx context.Context, sess *engine.Session, instr string) (any, error) {
			return map[string]any{"summary": "S: " + instr}, nil
		}
		s.IsCompacting = func(*engine.Session) bool { return false }
		c.userBash = func(ctx context.Context, command string, exclude bool) (*BashResult, func(context.Context, func(string)) (BashResult, error), error) {
			if command != "handled by extension" {
				return nil, nil, nil
			}
			code := 0
			return &BashResult{Output: fmt.Sprintf("ext ran it (exclude=%v)", exclude), ExitCode: &code}, nil, nil
		}
	}})
	d.call(msg{"id": "gc", "type": "get_commands"})
	d.call(msg{"id": "st", "type": "steer", "message": "/skill:greet with care"})
	d.call(msg{"id": "fu", "type": "follow_up", "message": "/fix bug"})
	d.call(msg{"id": "ex", "type": "steer", "message": "/ext now"})
	d.call(msg{"id": "gone", "type": "follow_up", "message": "/skill:gone"})
	d.call(msg{"id": "cq", "type": "clear_queue"})
	d.call(msg{"id": "co", "type": "compact", "customInstructions": "keep it short"})
	d.send(`{"type":"extension_ui_response","id":"u1","confirmed":true}`)
	d.call(msg{"id": "p", "type": "prompt", "message": "/fix x"})
	d.event("agent_settled")
	d.call(msg{"id": "x", "type": "export_html"})
	d.call(msg{"id": "ub", "type": "bash", "command": "handled by extension", "excludeFromContext": true})
	d.call(msg{"id": "ub2", "type": "bash", "command": "echo normal"})
	d.golden("commands_expansion")
	if len(uiRaw) != 1 || !strings.Contains(uiRaw[0], `"confirmed":true`) {
		t.Errorf("OnUIResponse got %q", uiRaw)
	}
}

// TestSessionHooks checks that extensions can cancel switches and forks
// and are told about every new runtime with the reference's reasons.
func TestSessionHooks(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []string
	cancelNew, cancelFork := true, true
	d := newDriver(t, driverOptions{persisted: true, turns: []faux.Turn{{Text: "One."}}, tweak: func(s *Server, c *testController, dir string) {
		c.sw.Hooks = session.SwitchHooks{
			BeforeSwitch: func(ctx context.Context, reason, target string) bool {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, "before_switch:"+reason)
				return reason == "new" && cancelNew
			},
			BeforeFork: func(ctx context.Context, entryID, position string) bool {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, "before_fork:"+position)
				return cancelFork
			},
			Switched: func(sess *engine.Session, reason, prev string) {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, "switched:"+reason+":"+fmt.Sprint(prev != ""))
			},
		}
	}})
	d.call(msg{"id": "p", "type": "prompt", "message": "Hi."})
	d.event("agent_settled")
	fm := d.call(msg{"id": "fm", "type": "get_fork_messages"})
	entry := fm["data"].(map[string]any)["messages"].([]any)[0].(map[string]any)["entryId"].(string)
	checks := []struct {
		cmd  msg
		want string
	}{
		{msg{"id": "n1", "type": "new_session"}, `{"cancelled":true}`},
		{msg{"id": "f1", "type": "fork", "entryId": entry}, `{"cancelled":true}`},
		{msg{"id": "c1", "type": "clone"}, `{"cancelled":true}`},
	}
	for _, c := range checks {
		r := d.call(c.cmd)
		b, _ := json.Marshal(r["data"])
		if string(b) != c.want {
			t.Errorf("%v: data %s, want %s", c.cmd["type"], b, c.want)
		}
	}
	mu.Lock()
	cancelNew, cancelFork = false, false
	mu.Unlock()
	d.call(msg{"id": "f2", "type": "fork", "entryId": entry})
	d.call(msg{"id": "n2", "type": "new_session"})
	mu.Lock()
	got := strings.Join(seen, " ")
	mu.Unlock()
	want := "before_switch:new before_fork:before before_fork:at before_fork:before switched:fork:true before_switch:new switched:new:true"
	if got != want {
		t.Errorf("hooks saw\n%s\nwant\n%s", got, want)
	}
}

// panickyHooks panic in the input hook, like a broken extension could.
type panickyHooks struct{ engine.NopHooks }

func (panickyHooks) Input(context.Context, string, []engine.Content, string, string) (engine.InputResult, error) {
	panic("input hook exploded")
}

// TestPanickingPromptKeepsServing checks that a panic while accepting a
// prompt becomes a failure response and does not hold back later events.
func TestPanickingPromptKeepsServing(t *testing.T) {
	t.Parallel()
	d := newDriver(t, driverOptions{})
	d.host.hooks = panickyHooks{}
	d.call(msg{"id": "n", "type": "new_session"}) // picks up the hooks
	r := d.call(msg{"id": "p", "type": "prompt", "message": "boom"})
	if r["success"] != false || !strings.Contains(fmt.Sprint(r["error"]), "input hook exploded") {
		t.Fatalf("prompt response %v", r)
	}
	d.sendJSON(msg{"id": "s", "type": "set_session_name", "name": "still here"})
	d.event("session_info_changed")
	d.response("s")
}

// TestQuickCommandsKeepOrder sends a burst of quick commands, parse
// errors and unknown commands without waiting and expects the answers in
// the order sent.
func TestQuickCommandsKeepOrder(t *testing.T) {
	t.Parallel()
	d := newDriver(t, driverOptions{})
	var burst strings.Builder
	var want []string
	for i := range 30 {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&burst, "{\"id\":\"q%d\",\"type\":\"get_state\"}\n", i)
		case 1:
			burst.WriteString("{oops\n")
		case 2:
			fmt.Fprintf(&burst, "{\"id\":\"q%d\",\"type\":\"nope\"}\n", i)
		case 3:
			fmt.Fprintf(&burst, "{\"id\":\"q%d\",\"type\":\"set_session_name\",\"name\":\"n%d\"}\n", i, i)
		case 4:
			fmt.Fprintf(&burst, "{\"id\":\"q%d\",\"type\":\"get_messages\"}\n", i)
		}
		if i%5 == 1 {
			want = append(want, "parse")
		} else {
			want = append(want, fmt.Sprintf("q%d", i))
		}
	}
	if _, err := io.WriteString(d.in, burst.String()); err != nil {
		t.Fatal(err)
	}
	var got []string
	for len(got) < len(want) {
		r := d.until("response", func(r map[string]any) bool { return r["type"] == "response" })
		if id, ok := r["id"].(string); ok {
			got = append(got, id)
		} else {
			got = append(got, fmt.Sprint(r["command"]))
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("answers in order\n%v\nwant\n%v", got, want)
	}
}

// TestHugeLines checks that records far larger than any buffer are read
// whole, answered, and leave the server serving.
func TestHugeLines(t *testing.T) {
	t.Parallel()
	d := newDriver(t, driverOptions{})
	big := strings.Repeat("x", 600<<10) // ten times the reader's buffer
	if _, err := io.WriteString(d.in, "{"+big+"\n"); err != nil {
		t.Fatal(err)
	}
	if r := d.command("parse"); r["success"] != false {
		t.Fatalf("parse answer %v", r)
	}
	if _, err := io.WriteString(d.in, `{"id":"n","type":"set_session_name","name":"`+big+`"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	ev := d.event("session_info_changed")
	if len(fmt.Sprint(ev["name"])) != len(big) {
		t.Fatalf("name of %d bytes came back as %d", len(big), len(fmt.Sprint(ev["name"])))
	}
	d.response("n")
	d.call(msg{"id": "s", "type": "get_state"})
}
