package engine

import "context"

// SystemContextHooks is implemented by Hooks that run the extensions'
// "context_with_system" handlers: after the "context" handlers, they see
// one request's whole transcript, system messages included, and may
// replace it. It is a separate interface so that Hooks implementations
// without it need not change.
type SystemContextHooks interface {
	// ContextWithSystem returns the messages to send; nil keeps msgs.
	ContextWithSystem(ctx context.Context, msgs []*Message) ([]*Message, error)
}
