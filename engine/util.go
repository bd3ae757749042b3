package engine

import "time"

// NowMillis is the message timestamp for now.
func NowMillis() int64 { return time.Now().UnixMilli() }

// ISOTime formats t like JavaScript's Date.toISOString (UTC, milliseconds).
func ISOTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
