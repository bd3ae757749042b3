// Package highlight colours source code for fenced code blocks and tool
// output with a theme's syntax* tokens. It is a small table-driven scanner
// (comments, strings, numbers, keywords, types, literals, function names,
// variables, and per-language specials for diff, JSON, YAML, HTML/XML, CSS
// and Markdown), close in spirit to the highlight.js classes pi maps to
// its theme, not a full grammar. The tables are constant data: the package
// costs nothing at start.
package highlight
