package rpc

import (
	"bytes"
	"context"
	"errors"

	"github.com/pi-go/pi/engine"
)

var errNoCommand = errors.New("Invalid command: command must be a string")

// bashUpdate is the bash_execution_update record. It is written by the
// server rather than published on the session because its id echoes the
// client's command id verbatim, whatever JSON type that is.
type bashUpdate struct {
	ID    []byte
	Delta string
}

func (u bashUpdate) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"bash_execution_update"`)
	if len(u.ID) > 0 {
		b.WriteString(`,"id":`)
		b.Write(u.ID)
	}
	d, err := engine.MarshalJSON(u.Delta)
	if err != nil {
		return nil, err
	}
	b.WriteString(`,"delta":`)
	b.Write(d)
	b.WriteByte('}')
	return b.Bytes(), nil
}

func handleBash(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		Command            *string `json:"command"`
		ExcludeFromContext bool    `json:"excludeFromContext"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	if f.Command == nil {
		return fail(cmd, errNoCommand)
	}
	bctx, cancel := context.WithCancel(ctx)
	defer cancel()
	id := s.trackBash(cancel)
	defer s.untrackBash(id)
	res, err := s.ctl.RunBash(bctx, *f.Command, f.ExcludeFromContext, func(chunk string) {
		_ = s.out.WriteDeltaRecord(bashUpdate{ID: cmd.ID, Delta: chunk})
	})
	if err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, res)
}

func (s *Server) trackBash(cancel context.CancelFunc) int {
	s.bashMu.Lock()
	defer s.bashMu.Unlock()
	s.nextBash++
	s.bashes[s.nextBash] = cancel
	return s.nextBash
}

func (s *Server) untrackBash(id int) {
	s.bashMu.Lock()
	defer s.bashMu.Unlock()
	delete(s.bashes, id)
}

// abortBash cancels every running user bash command.
func (s *Server) abortBash() {
	s.bashMu.Lock()
	defer s.bashMu.Unlock()
	for _, cancel := range s.bashes {
		cancel()
	}
}

func handleAbortBash(ctx context.Context, s *Server, cmd *Command) *Response {
	s.abortBash()
	return ok(cmd, nil)
}
