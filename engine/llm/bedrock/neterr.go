package bedrock

import (
	"errors"
	"syscall"

	"github.com/pi-go/pi/engine/llm"
)

// transportError words a failure to reach the endpoint as Node does
// ("connect ECONNREFUSED 127.0.0.1:9"), the text the reference shows and
// its retry logic reads, instead of Go's "Post \"…\": dial tcp …".
func transportError(err error) error {
	if errors.Is(err, syscall.ECONNRESET) {
		return errors.New("read ECONNRESET")
	}
	return errors.New(llm.NetCause(err))
}
