// Package markdown renders Markdown as styled terminal rows the way pi's
// interactive mode shows assistant replies: headings in the heading colour
// (bold, level 1 also underlined, levels 3+ keep their "### "), emphasis,
// inline code, links as "text (url)" or OSC 8 hyperlinks, "- " and "1. "
// lists indented four columns per level, "│ " block quotes in italics,
// fenced code with its fences kept and the body indented and highlighted,
// GFM tables in box drawing, rules, and word wrap that keeps styles across
// rows.
//
// The parser is our own, modelled on the block and inline rules pi's
// renderer (marked, GFM) follows. It is not goldmark because linking
// goldmark costs every start of pi ~0.5 ms and 250 KB of init (its util
// package builds a case-folding map and its parser compiles regexps at
// init; its GFM extension package adds another ~0.6 ms), while this
// package has no package-level initialisation at all.
//
// A Doc caches the rows of each top-level block. While a reply streams in
// (SetText with text that only grows), only the last block is lexed and
// rendered again, so the cost of a delta does not grow with the reply.
package markdown
