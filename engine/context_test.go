package engine

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func chain(es ...*Entry) []*Entry {
	for i, e := range es {
		if i > 0 {
			p := es[i-1].ID
			e.ParentID = &p
		}
		if e.Timestamp == "" {
			e.Timestamp = "2026-01-01T00:00:00.000Z"
		}
	}
	return es
}

func msgEntry(id, role, text string) *Entry {
	m := &Message{Role: role, Content: Blocks(TextContent(text))}
	if role == RoleSystem {
		m.Content = StringContents(text)
	}
	if role == RoleAssistant {
		m.Provider, m.Model = "p", "m1"
	}
	return &Entry{Type: EntryMessage, ID: id, Message: m}
}

func texts(msgs []*Message) []string {
	var out []string
	for _, m := range ConvertToLLM(msgs) {
		out = append(out, m.Role+":"+m.Content.Text())
	}
	return out
}

func TestBuildContext(t *testing.T) {
	t.Parallel()
	sys := &Message{Role: RoleSystem, Content: StringContents("checkpoint")}
	tests := []struct {
		name     string
		branch   []*Entry
		want     []string
		thinking ThinkingLevel
		model    *ContextModel
	}{
		{
			name:     "plain path with settings",
			branch:   chain(&Entry{Type: EntryModelChange, ID: "a", Provider: "p", ModelID: "m0"}, &Entry{Type: EntryThinkingLevelChange, ID: "b", ThinkingLevel: "high"}, msgEntry("c", RoleUser, "hi"), msgEntry("d", RoleAssistant, "yo")),
			want:     []string{"user:hi", "assistant:yo"},
			thinking: ThinkingHigh,
			model:    &ContextModel{Provider: "p", ModelID: "m1"},
		},
		{
			name:     "empty",
			thinking: ThinkingOff,
		},
		{
			name: "compaction keeps from firstKeptEntryId and drops system messages",
			branch: chain(msgEntry("s", RoleSystem, "old system"), msgEntry("u1", RoleUser, "one"), msgEntry("a1", RoleAssistant, "r1"),
				msgEntry("s2", RoleSystem, "patch"), msgEntry("u2", RoleUser, "two"),
				&Entry{Type: EntryCompaction, ID: "c", Summary: "S", FirstKeptEntryID: "a1", TokensBefore: 9, SystemMessage: sys},
				msgEntry("u3", RoleUser, "three")),
			want:     []string{"system:checkpoint", "user:" + CompactionSummaryPrefix + "S" + CompactionSummarySuffix, "assistant:r1", "user:two", "user:three"},
			thinking: ThinkingOff,
			model:    &ContextModel{Provider: "p", ModelID: "m1"},
		},
		{
			name: "compaction retaining none",
			branch: chain(msgEntry("u1", RoleUser, "one"),
				&Entry{Type: EntryCompaction, ID: "c", Summary: "S", FirstKeptEntryID: "c"}, msgEntry("u2", RoleUser, "two")),
			want:     []string{"user:" + CompactionSummaryPrefix + "S" + CompactionSummarySuffix, "user:two"},
			thinking: ThinkingOff,
		},
		{
			name: "latest compaction wins, older one inside kept range is silent",
			branch: chain(msgEntry("u1", RoleUser, "one"),
				&Entry{Type: EntryCompaction, ID: "c1", Summary: "S1", FirstKeptEntryID: "u1"},
				msgEntry("u2", RoleUser, "two"),
				&Entry{Type: EntryCompaction, ID: "c2", Summary: "S2", FirstKeptEntryID: "c1"}),
			want:     []string{"user:" + CompactionSummaryPrefix + "S2" + CompactionSummarySuffix, "user:two"},
			thinking: ThinkingOff,
		},
		{
			name: "context edits: latest per target, null removes, string becomes text block",
			branch: chain(msgEntry("u1", RoleUser, "one"), msgEntry("a1", RoleAssistant, "r1"), msgEntry("u2", RoleUser, "two"),
				&Entry{Type: EntryContextEdit, ID: "e1", TargetID: "a1", Replacement: json.RawMessage(`{"content":"first edit"}`)},
				&Entry{Type: EntryContextEdit, ID: "e2", TargetID: "a1", Replacement: json.RawMessage(`{"content":"edited"}`)},
				&Entry{Type: EntryContextEdit, ID: "e3", TargetID: "u2", Replacement: json.RawMessage(`null`)}),
			want:     []string{"user:one", "assistant:edited"},
			thinking: ThinkingOff,
			model:    &ContextModel{Provider: "p", ModelID: "m1"},
		},
		{
			name: "branch summary, custom message, bookkeeping entries",
			branch: chain(msgEntry("u1", RoleUser, "one"),
				&Entry{Type: EntryBranchSummary, ID: "b", FromID: "x", Summary: "went elsewhere"},
				&Entry{Type: EntryBranchSummary, ID: "b2", FromID: "x"},
				&Entry{Type: EntryCustomMessage, ID: "cm", CustomType: "ext", Content: &Contents{Blocks: []Content{TextContent("injected")}, IsString: true}},
				&Entry{Type: EntryCustom, ID: "cu", CustomType: "state"},
				&Entry{Type: EntryLabel, ID: "l", TargetID: "u1"},
				&Entry{Type: EntryUsage, ID: "us", Kind: "cache_warm"}),
			want:     []string{"user:one", "user:" + BranchSummaryPrefix + "went elsewhere" + BranchSummarySuffix, "user:injected"},
			thinking: ThinkingOff,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := BuildContext(tt.branch)
			assert.Equal(t, tt.want, texts(ctx.Messages))
			assert.Equal(t, tt.thinking, ctx.ThinkingLevel)
			assert.Equal(t, tt.model, ctx.Model)
		})
	}
}

func TestBuildContextDoesNotMutateEntries(t *testing.T) {
	t.Parallel()
	branch := chain(msgEntry("a1", RoleAssistant, "r1"),
		&Entry{Type: EntryContextEdit, ID: "e", TargetID: "a1", Replacement: json.RawMessage(`{"content":"x"}`)})
	BuildContext(branch)
	assert.Equal(t, "r1", branch[0].Message.Content.Text())
}

func TestConvertToLLM(t *testing.T) {
	t.Parallel()
	three, zero := 3, 0
	tests := []struct {
		name string
		in   *Message
		want []string
	}{
		{"bash nonzero", &Message{Role: RoleBashExecution, Command: "echo hi; echo err >&2; exit 3", Output: "hi\nerr\n", ExitCode: &three},
			[]string{"user:Ran `echo hi; echo err >&2; exit 3`\n```\nhi\nerr\n\n```\n\nCommand exited with code 3"}},
		{"bash no output", &Message{Role: RoleBashExecution, Command: "true", ExitCode: &zero}, []string{"user:Ran `true`\n(no output)"}},
		{"bash cancelled truncated", &Message{Role: RoleBashExecution, Command: "c", Output: "o", Cancelled: true, Truncated: true, FullOutputPath: "/tmp/f.log"},
			[]string{"user:Ran `c`\n```\no\n```\n\n(command cancelled)\n\n[Output truncated. Full output: /tmp/f.log]"}},
		{"bash excluded", &Message{Role: RoleBashExecution, Command: "c", ExcludeFromContext: true}, nil},
		{"unknown role dropped", &Message{Role: "weird"}, nil},
		{"user passes", &Message{Role: RoleUser, Content: Blocks(TextContent("u"))}, []string{"user:u"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, texts([]*Message{tt.in}))
		})
	}
	out := ConvertToLLM([]*Message{{Role: RoleCustom, Content: StringContents("s"), Timestamp: 5}})
	require.Len(t, out, 1)
	b, err := MarshalJSON(out[0])
	require.NoError(t, err)
	assert.Equal(t, `{"role":"user","content":[{"type":"text","text":"s"}],"timestamp":5}`, string(b))
}
