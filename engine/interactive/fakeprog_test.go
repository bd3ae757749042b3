package interactive

import (
	"context"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine/tui"
)

// fakeProgram is a UI loop without a terminal, for app tests until
// engine/tui's Program and its virtual terminal land: posted functions
// run in order on the Run goroutine; timers never fire.
type fakeProgram struct {
	mu    sync.Mutex
	queue []func()
	wake  chan struct{}
	quit  chan struct{}
	once  sync.Once
}

func (p *fakeProgram) SetBody(tui.Component)               {}
func (p *fakeProgram) SetDock(tui.Component)               {}
func (p *fakeProgram) SetFocus(tui.Component)              {}
func (p *fakeProgram) SetInterceptor(func(tui.Event) bool) {}
func (p *fakeProgram) RequestRender()                      {}
func (p *fakeProgram) Reprint()                            {}
func (p *fakeProgram) Every(time.Duration, func()) func()  { return func() {} }
func (p *fakeProgram) ReleaseTerminal() error              { return nil }
func (p *fakeProgram) RestoreTerminal() error              { return nil }
func (p *fakeProgram) Suspend() error                      { return nil }
func (p *fakeProgram) Quit()                               { p.once.Do(func() { close(p.quit) }) }

func (p *fakeProgram) Post(fn func()) {
	p.mu.Lock()
	p.queue = append(p.queue, fn)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *fakeProgram) Run(ctx context.Context, _ func(tui.Event)) error {
	for {
		p.mu.Lock()
		q := p.queue
		p.queue = nil
		p.mu.Unlock()
		for _, fn := range q {
			fn()
			select {
			case <-p.quit:
				return nil
			default:
			}
		}
		select {
		case <-p.quit:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-p.wake:
		}
	}
}

func TestMain(m *testing.M) {
	newProgram = func(terminal, io.Reader, programOptions) (uiProgram, error) {
		return &fakeProgram{wake: make(chan struct{}, 1), quit: make(chan struct{})}, nil
	}
	os.Exit(m.Run())
}
