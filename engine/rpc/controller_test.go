package rpc

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// TestSessionController checks the methods the extensions' ctx.newSession,
// ctx.switchSession and ctx.fork call: each consults the same hooks as
// the RPC commands, and a replacement runs Teardown (session_shutdown)
// before Switched (session_start).
func TestSessionController(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []string
	log := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, s)
	}
	d := newDriver(t, driverOptions{persisted: true, turns: []faux.Turn{{Text: "One."}}, tweak: func(s *Server, c *testController, dir string) {
		c.sw.Hooks = session.SwitchHooks{
			BeforeSwitch: func(ctx context.Context, reason, target string) bool {
				log("before_switch:" + reason)
				return reason == "resume"
			},
			BeforeFork: func(ctx context.Context, entryID, position string) bool {
				log("before_fork:" + position)
				return false
			},
			Teardown: func(ctx context.Context, reason, target string) {
				log("teardown:" + reason + ":" + fmt.Sprint(target != ""))
			},
			Switched: func(sess *engine.Session, reason, prev string) {
				log("switched:" + reason)
			},
		}
	}})
	d.call(msg{"id": "p", "type": "prompt", "message": "Hi."})
	d.event("agent_settled")
	_, store := d.srv.current()
	var user string
	for _, e := range store.Branch() {
		if e.Type == engine.EntryMessage && e.Message.Role == engine.RoleUser {
			user = e.ID
		}
	}
	ctx := context.Background()
	steps := []struct {
		name string
		run  func() (bool, string, error)
		want string
	}{
		{"switch cancelled", func() (bool, string, error) {
			c, err := d.ctl.sw.SwitchSession(ctx, "/nowhere.jsonl")
			return c, "", err
		}, "true  <nil>"},
		{"fork before", func() (bool, string, error) { return d.ctl.sw.Fork(ctx, user, "before") }, "false Hi. <nil>"},
		{"fork unknown", func() (bool, string, error) { return d.ctl.sw.Fork(ctx, "nope", "at") }, "false  Invalid entry ID for forking"},
		{"new", func() (bool, string, error) {
			c, err := d.ctl.sw.NewSession(ctx, "")
			return c, "", err
		}, "false  <nil>"},
	}
	for _, st := range steps {
		c, text, err := st.run()
		if got := fmt.Sprint(c, " ", text, " ", err); got != st.want {
			t.Errorf("%s: got %q, want %q", st.name, got, st.want)
		}
	}
	mu.Lock()
	got := strings.Join(seen, " ")
	mu.Unlock()
	want := "before_switch:resume before_fork:before teardown:fork:true switched:fork before_fork:at before_switch:new teardown:new:true switched:new"
	if got != want {
		t.Errorf("hooks saw\n%s\nwant\n%s", got, want)
	}
}
