package engine

import "context"

// DialogOptions qualify a blocking dialog. Timeout is in milliseconds
// (0 = none); when it expires the dialog resolves with its default value.
// Cancelling ctx (an extension's AbortSignal) also resolves with the
// default, and a dialog whose ctx is already done is never shown.
type DialogOptions struct {
	TimeoutMs int64
}

// WidgetOptions qualify SetWidget.
type WidgetOptions struct {
	Placement string // "aboveEditor" (default) or "belowEditor"
}

// UI is what extensions reach through ctx.ui. RPC mode implements it with
// the extension_ui_request sub-protocol; print and JSON modes use NopUI,
// whose answers are the reference's headless defaults. Dialog methods
// block until answered; ok is false when the dialog resolved with its
// default (cancelled, timed out, aborted, or no UI).
type UI interface {
	Select(ctx context.Context, title string, options []string, o DialogOptions) (choice string, ok bool)
	Confirm(ctx context.Context, title, message string, o DialogOptions) bool
	Input(ctx context.Context, title, placeholder string, o DialogOptions) (text string, ok bool)
	Editor(ctx context.Context, title, prefill string) (text string, ok bool)

	// Fire-and-forget calls. An empty notifyType, nil statusText or nil
	// lines are omitted on the wire (they clear the key).
	Notify(message, notifyType string)
	SetStatus(key string, text *string)
	SetWidget(key string, lines []string, o WidgetOptions)
	SetTitle(title string)
	SetEditorText(text string)

	// HasUI reports whether dialogs can reach a person (ctx.hasUI).
	HasUI() bool
	// Mode is "rpc", "json" or "print" (ctx.mode).
	Mode() string
}

// NopUI is the UI of print and JSON modes.
type NopUI struct{ ModeName string }

func (NopUI) Select(context.Context, string, []string, DialogOptions) (string, bool) {
	return "", false
}
func (NopUI) Confirm(context.Context, string, string, DialogOptions) bool         { return false }
func (NopUI) Input(context.Context, string, string, DialogOptions) (string, bool) { return "", false }
func (NopUI) Editor(context.Context, string, string) (string, bool)               { return "", false }
func (NopUI) Notify(string, string)                                               {}
func (NopUI) SetStatus(string, *string)                                           {}
func (NopUI) SetWidget(string, []string, WidgetOptions)                           {}
func (NopUI) SetTitle(string)                                                     {}
func (NopUI) SetEditorText(string)                                                {}
func (NopUI) HasUI() bool                                                         { return false }

// Mode returns the mode name, "print" when unset.
func (u NopUI) Mode() string {
	if u.ModeName == "" {
		return "print"
	}
	return u.ModeName
}
