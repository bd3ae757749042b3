// Package editor is pi's multi-line prompt editor: a buffer of lines with
// a cursor, word-wrapped between two horizontal rules, with prompt
// history, Emacs-style editing (kill ring, yank, undo, jump to a
// character), bracketed paste that folds large pastes into
// "[paste #N +M lines]" markers, and autocomplete (slash commands, "@"
// fuzzy file search and Tab path completion) listed below the bottom rule.
//
// Keys are matched through a *tui.Keymap, so keybindings.json applies.
// Cursor columns are byte offsets into a line; movement and deletion
// step by grapheme cluster, and a paste marker counts as one unit.
//
// Like every component, an Editor belongs to the UI goroutine.
package editor
