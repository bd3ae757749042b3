package anthropic

import (
	"context"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/cachewarm"
)

// TestInputTransformationsDiagnostic checks that thinking blocks
// Anthropic reports dropping (message_delta's input_transformations
// replacing message_start's) become the anthropic_input_transformations
// diagnostic, which the dropped-thinking notice reads.
func TestInputTransformationsDiagnostic(t *testing.T) {
	t.Parallel()
	sse := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"claude-x\",\"usage\":{\"input_tokens\":5,\"output_tokens\":1},\"input_transformations\":[{\"type\":\"other\"}]}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2},\"input_transformations\":[{\"type\":\"thinking_dropped\",\"path\":\"messages.1.content.0\",\"reason\":\"signature_invalid\",\"extra\":1},{\"type\":\"thinking_dropped\",\"path\":null,\"reason\":\"signature_invalid\"}]}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	fs := newFakeServer(t, turn{Raw: sse})
	url := fs.URL
	req := &engine.LLMRequest{Model: &engine.Model{ID: "claude-x", Provider: "anthropic", API: "anthropic-messages", BaseURL: url, MaxTokens: 100},
		APIKey: "k", Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hi")), Timestamp: 1}}}
	_, msg := run(context.Background(), req)
	if msg.StopReason != engine.StopStop {
		t.Fatalf("%s %s", msg.StopReason, msg.ErrorMessage)
	}
	d := cachewarm.DroppedReasoning(msg)
	if d == nil || d.Count != 2 || len(d.Reasons) != 1 {
		t.Fatalf("diagnostics %s read as %+v", msg.Diagnostics, d)
	}
	if got := cachewarm.DroppedThinkingNotice(msg, nil); got != "Anthropic dropped 2 thinking blocks: signature_invalid (details in session)" {
		t.Errorf("notice %q", got)
	}
}
