// Package startmem tunes the collector and the heap for a start that
// loads extensions (see Start).
package startmem
