package bedrock

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/pi-go/pi/engine"
)

// The AWS SDK the reference sends through retries a failed attempt on its
// own before the agent sees anything: up to three attempts in its
// standard mode, for throttling, transient server errors and dropped
// connections, with jittered exponential backoff. Its values:
const (
	maxAttempts        = 3
	retryBase          = 100 * time.Millisecond
	throttlingBase     = 500 * time.Millisecond
	maxRetryDelay      = 20 * time.Second
	throttlingStatus   = http.StatusTooManyRequests
	errorTypeHeaderKey = "x-amzn-errortype"
)

// throttlingCodes are the error codes the SDK treats as throttling.
var throttlingCodes = map[string]bool{
	"BandwidthLimitExceeded": true, "EC2ThrottledException": true, "LimitExceededException": true,
	"PriorRequestNotComplete": true, "ProvisionedThroughputExceededException": true,
	"RequestLimitExceeded": true, "RequestThrottled": true, "RequestThrottledException": true,
	"SlowDown": true, "ThrottledException": true, "Throttling": true, "ThrottlingException": true,
	"TooManyRequestsException": true, "TransactionInProgressException": true,
}

// transientCodes are the error codes the SDK retries as transient.
var transientCodes = map[string]bool{
	"TimeoutError": true, "RequestTimeout": true, "RequestTimeoutException": true,
}

// retryDelay says whether a response the SDK would retry, and the base of
// its backoff (throttling waits longer).
func retryDelay(res *http.Response) (base time.Duration, retry bool) {
	code := res.Header.Get(errorTypeHeaderKey)
	if i := strings.IndexAny(code, ":"); i >= 0 {
		code = code[:i]
	}
	switch {
	case res.StatusCode == throttlingStatus || throttlingCodes[code]:
		return throttlingBase, true
	case transientCodes[code]:
		return retryBase, true
	case res.StatusCode == 500 || res.StatusCode == 502 || res.StatusCode == 503 || res.StatusCode == 504:
		return retryBase, true
	}
	return 0, false
}

// retryableTransport reports whether a failure to get a response is one
// the SDK retries: a connection reset, refused or timed out, or cut.
func retryableTransport(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ETIMEDOUT)
}

// backoff is the SDK's delay before attempt n+1 (n counts from 1): a
// random share of base·2^(n-1), at most 20 s.
func backoff(base time.Duration, n int) time.Duration {
	d := float64(base) * float64(int(1)<<(n-1)) * rand.Float64()
	return min(time.Duration(d), maxRetryDelay)
}

func (p *Provider) wait(ctx context.Context, d time.Duration) error {
	if p.sleep != nil {
		return p.sleep(ctx, d)
	}
	return engine.Sleep(ctx, d)
}
