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

// delivered removes a taken message; it reports whether m was queued here.
func (q *messageQueue) delivered(m *Message) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i, it := range q.items {
		if it.msg == m {
			q.items = append(q.items[:i:i], q.items[i+1:]...)
			return true
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

func (q *messageQueue) texts() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]string, 0, len(q.items))
	for _, it := range q.items {
		out = append(out, it.text)
	}
	return out
}

func (q *messageQueue) clear() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]string, 0, len(q.items))
	for _, it := range q.items {
		out = append(out, it.text)
	}
	q.items = nil
	return out
}

func (q *messageQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
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
