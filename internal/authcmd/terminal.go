package authcmd

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/pi-go/pi/engine/config/login"
)

// terminal is the person at the keyboard during a login.
type terminal interface {
	interactive() bool
	// question reads a line; secret reads one without echo.
	question(ctx context.Context, prompt string) (string, error)
	secret(ctx context.Context, prompt string) (string, error)
	openURL(url string)
}

// processTerminal is stdin and stdout. Lines are read by one reader
// goroutine, so a question abandoned (the browser answered first) does
// not swallow the next answer.
type processTerminal struct {
	out   io.Writer
	once  sync.Once
	lines chan lineResult
}

type lineResult struct {
	s   string
	err error
}

func newProcessTerminal(out io.Writer) *processTerminal {
	return &processTerminal{out: out}
}

func (t *processTerminal) interactive() bool {
	return isTerminal(os.Stdin.Fd()) && isTerminal(os.Stdout.Fd())
}

func (t *processTerminal) start() {
	t.once.Do(func() {
		t.lines = make(chan lineResult)
		go func() {
			r := bufio.NewReader(os.Stdin)
			for {
				s, err := r.ReadString('\n')
				if err != nil && s == "" {
					t.lines <- lineResult{err: login.ErrCancelled}
					return
				}
				t.lines <- lineResult{s: strings.TrimRight(s, "\r\n")}
			}
		}()
	})
}

func (t *processTerminal) readLine(ctx context.Context) (string, error) {
	t.start()
	select {
	case <-ctx.Done():
		return "", login.ErrCancelled
	case l := <-t.lines:
		return l.s, l.err
	}
}

func (t *processTerminal) question(ctx context.Context, prompt string) (string, error) {
	fmt.Fprint(t.out, prompt)
	return t.readLine(ctx)
}

func (t *processTerminal) secret(ctx context.Context, prompt string) (string, error) {
	fmt.Fprint(t.out, prompt)
	restore := noEcho(os.Stdin.Fd())
	s, err := t.readLine(ctx)
	restore()
	fmt.Fprintln(t.out)
	return s, err
}

// openURL starts the platform's browser opener and does not wait for it;
// the URL is printed as well, so a missing opener only costs a click.
func (t *processTerminal) openURL(url string) { login.OpenBrowser(url) }
