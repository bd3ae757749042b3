// Package utf16x measures and cuts Go strings in UTF-16 code units, the
// unit of JavaScript's String.prototype.length, which the reference uses
// for every character limit it applies.
//
// A Go string is UTF-8 and may hold invalid bytes. Each invalid byte counts
// as one unit, the U+FFFD that ranging over the string yields for it. A
// surrogate pair is never split: JavaScript would keep its first half, but
// a lone surrogate cannot be written as UTF-8, so a cut that would fall
// inside a pair falls before it.
package utf16x
