package engine

import "sync"

// Queue modes for steering and follow-up messages.
const (
	QueueOneAtATime = "one-at-a-time"
	QueueAll        = "all"
)

// queuedMessage is one steering or follow-up message. It stays visible in
// queue_update events until its message_start is emitted, which is what
// clients observe from the reference: taking a message from the queue and
// showing its removal are two different moments.
type queuedMessage struct {
	text  string
	msg   *Message
	taken bool
	// hidden marks an extension's custom message: the loop delivers it
	// like any other, but the reference keeps it out of queue_update and
	// pendingMessageCount, which list only the user's queued texts.
	hidden bool
}

// messageQueue is a FIFO of user messages with a drain mode.
type messageQueue struct {
	mu    sync.Mutex
	items []*queuedMessage
	mode  string
}

func (q *messageQueue) push(text string, m *Message) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, &queuedMessage{text: text, msg: m})
}

// pushHidden queues an extension's custom message (see queuedMessage.hidden).
func (q *messageQueue) pushHidden(m *Message) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, &queuedMessage{msg: m, hidden: true})
}

// drain takes the first untaken item, or all of them in "all" mode.
func (q *messageQueue) drain() []*Message {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []*Message
	for _, it := range q.items {
		if it.taken {
			continue
		}
		it.taken = true
		out = append(out, it.msg)
		if q.mode != QueueAll {
			break
		}
	}
	return out
}

// delivered removes a taken message; it reports whether m was queued here
// as a visible (user) message, that is whether clients must be told.
func (q *messageQueue) delivered(m *Message) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i, it := range q.items {
		if it.msg == m {
			q.items = append(q.items[:i:i], q.items[i+1:]...)
			return !it.hidden
		}
	}
	return false
}

// untake returns taken but undelivered items to the queue, for a run
// that ended before delivering them.
func (q *messageQueue) untake() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, it := range q.items {
		it.taken = false
	}
}

// texts lists the visible items' texts, as queue_update shows them.
func (q *messageQueue) texts() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]string, 0, len(q.items))
	for _, it := range q.items {
		if !it.hidden {
			out = append(out, it.text)
		}
	}
	return out
}

// clear empties the queue, hidden items included, and returns the
// visible texts.
func (q *messageQueue) clear() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]string, 0, len(q.items))
	for _, it := range q.items {
		if !it.hidden {
			out = append(out, it.text)
		}
	}
	q.items = nil
	return out
}

// len counts every queued item, hidden ones included: they keep a run
// going just as user messages do.
func (q *messageQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

// visibleLen counts the items clients see (pendingMessageCount).
func (q *messageQueue) visibleLen() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := 0
	for _, it := range q.items {
		if !it.hidden {
			n++
		}
	}
	return n
}

func (q *messageQueue) setMode(mode string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.mode = mode
}

func (q *messageQueue) getMode() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.mode == "" {
		return QueueOneAtATime
	}
	return q.mode
}
