package engine

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headerHooks is a ProviderHeaderHooks double: it records what it saw
// and answers with set (nil: nobody listens).
type headerHooks struct {
	NopHooks
	seen map[string]string
	set  map[string]*string
}

func (h *headerHooks) BeforeProviderHeaders(_ context.Context, headers map[string]string) (map[string]*string, bool) {
	h.seen = headers
	return h.set, h.set != nil
}

func strp(s string) *string { return &s }

func TestWithHeaderHook(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		set      map[string]*string
		wantSeen map[string]string
		wantHdrs map[string]string
		wantDrop []string
		unhooked bool
	}{
		{"nobody listens", nil, map[string]string{"x-model": "m", "x-req": "r"}, map[string]string{"x-req": "r"}, nil, true},
		{"add and delete", map[string]*string{"x-req": strp("r"), "x-new": strp("n"), "x-model": nil},
			map[string]string{"x-model": "m", "x-req": "r"}, map[string]string{"x-req": "r", "x-new": "n"}, []string{"x-model"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := &headerHooks{set: tt.set}
			model := &Model{ID: "m", Headers: map[string]string{"x-model": "m"}}
			req := &LLMRequest{Model: model, Headers: map[string]string{"x-req": "r"}}
			attachProviderHooks(context.Background(), h, req)
			require.NotNil(t, req.OnHeaders)
			got := req.WithHeaderHook()
			assert.Equal(t, tt.wantSeen, h.seen)
			assert.Nil(t, got.OnHeaders, "the hook runs once")
			assert.Equal(t, map[string]string{"x-model": "m"}, model.Headers, "the session's model is not changed")
			if tt.unhooked {
				assert.Equal(t, req.Headers, got.Headers)
				return
			}
			assert.Empty(t, got.Model.Headers)
			assert.Equal(t, tt.wantHdrs, got.Headers)
			assert.Equal(t, tt.wantDrop, got.DropHeaders)
			for _, d := range tt.wantDrop {
				assert.True(t, got.HeaderDropped(d))
			}
		})
	}
}

// streamHooks is a ProviderStreamHooks double.
type streamHooks struct {
	NopHooks
	want bool
	got  []string
}

func (s *streamHooks) WantsProviderStreamEvents() bool { return s.want }

func (s *streamHooks) ProviderStreamEvent(_ context.Context, m *Model, data json.RawMessage) {
	s.got = append(s.got, m.ID+":"+string(data))
}

func TestStreamHookAttachedOnlyWhenWanted(t *testing.T) {
	t.Parallel()
	for _, want := range []bool{false, true} {
		h := &streamHooks{want: want}
		req := &LLMRequest{Model: &Model{ID: "m"}}
		attachProviderHooks(context.Background(), h, req)
		if !want {
			assert.Nil(t, req.OnStreamEvent)
			continue
		}
		require.NotNil(t, req.OnStreamEvent)
		req.OnStreamEvent(json.RawMessage(`{"a":1}`))
		assert.Equal(t, []string{`m:{"a":1}`}, h.got)
	}
}

func TestReplayedSystemMessageOrder(t *testing.T) {
	t.Parallel()
	e := Entry{Type: EntryCompaction, ID: "c", Summary: "s", SystemMessage: &Message{Role: RoleSystem, Content: StringContents("p"),
		Timestamp: 5, ToolsAdded: []ToolDecl{{Name: "read"}}}}
	b, err := MarshalJSON(e)
	require.NoError(t, err)
	var raw struct {
		SystemMessage json.RawMessage `json:"systemMessage"`
	}
	require.NoError(t, json.Unmarshal(b, &raw))
	s := string(raw.SystemMessage)
	assert.Regexp(t, `^\{"role":"system","content":"p","toolsAdded":\[.*\],"timestamp":5\}$`, s)
}

// orderHooks records the header order a dispatch was given.
type orderHooks struct {
	NopHooks
	names []string
}

func (h *orderHooks) BeforeProviderHeaders(ctx context.Context, headers map[string]string) (map[string]*string, bool) {
	h.names = OrderHeaderNames(headers, HeaderOrderFrom(ctx))
	return nil, false
}

// TestHeaderHookOrder checks the order before_provider_headers handlers
// see: names without a configured place first, sorted, then the
// request's HeaderOrder (models.json's).
func TestHeaderHookOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		order []string
		want  []string
	}{
		{"no order: sorted", nil, []string{"X-Zeta", "x-alpha", "x-model", "x-opencode-session"}},
		{"configured order after the rest", []string{"x-opencode-session", "X-Zeta", "x-alpha", "x-gone"},
			[]string{"x-model", "x-opencode-session", "X-Zeta", "x-alpha"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := &orderHooks{}
			req := &LLMRequest{
				Model:       &Model{ID: "m", Headers: map[string]string{"x-model": "m"}},
				Headers:     map[string]string{"X-Zeta": "z", "x-alpha": "a", "x-opencode-session": "s"},
				HeaderOrder: tt.order,
			}
			attachProviderHooks(context.Background(), h, req)
			req.WithHeaderHook()
			assert.Equal(t, tt.want, h.names)
		})
	}
}
