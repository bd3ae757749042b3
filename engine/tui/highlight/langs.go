package highlight

import "strings"

const (
	modeCode = iota
	modeDiff
	modeMarkup
	modeMarkdown
	modeJSON
	modeYAML
	modeCSS
)

// langSpec is one language's table. Word lists are space-separated with a
// space at each end, so a lookup is one substring search and the tables
// are constant data.
type langSpec struct {
	mode int
	// lineComment lists line comment openers separated by spaces.
	lineComment string
	// blockOpen/blockClose delimit block comments.
	blockOpen, blockClose string
	// quotes are the string delimiters; raw lists those without escapes.
	quotes, raw string
	// multiline lists the quotes whose strings may span lines.
	multiline    string
	triple       bool // Python's """ and '''
	keywords     string
	types        string
	literals     string
	funcDefs     string // words after which a name is a function
	typeDefs     string // words after which a name is a type
	ignoreCase   bool
	dollarVars   bool // $name and ${name}
	decorators   bool // @name
	preprocessor bool // # lines
	hashComment  bool // # starts a comment only at a word boundary (shells)
	upperTypes   bool // Capitalised names are types
}

const cLike = " auto break case const continue default do else enum extern for goto if inline register restrict return sizeof static struct switch typedef union volatile while "

var (
	goSpec = langSpec{
		lineComment: "//", blockOpen: "/*", blockClose: "*/", quotes: "\"'`", raw: "`", multiline: "`",
		// Go's basic types are keywords to highlight.js, its built-in
		// functions built-ins.
		keywords: " break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any comparable ",
		types:    " append cap clear close complex copy delete imag len make max min new panic print println real recover ",
		literals: " true false nil iota ",
		funcDefs: " func ",
	}
	jsSpec = langSpec{
		lineComment: "//", blockOpen: "/*", blockClose: "*/", quotes: "\"'`", multiline: "`",
		keywords: " as async await break case catch class const continue debugger default delete do else export extends finally for from function get if import in instanceof let new of return set static switch throw try typeof var void while with yield ",
		types:    " this super Array Boolean Date Error JSON Map Math Number Object Promise RegExp Set String Symbol console document globalThis process require module window ",
		literals: " true false null undefined NaN Infinity ",
		funcDefs: " function ", typeDefs: " class extends ",
	}
	tsSpec = langSpec{
		lineComment: "//", blockOpen: "/*", blockClose: "*/", quotes: "\"'`", multiline: "`",
		keywords: " abstract as async await break case catch class const continue debugger declare default delete do else enum export extends finally for from function get if implements import in infer instanceof interface is keyof let namespace new of private protected public readonly return satisfies set static switch throw try type typeof var void while with yield ",
		types:    " this super any bigint boolean never number object string symbol unknown void Array Boolean Date Error JSON Map Math Number Object Promise Record Partial Readonly RegExp Set String Symbol console document globalThis process require module window ",
		literals: " true false null undefined NaN Infinity ",
		funcDefs: " function ", typeDefs: " class interface type enum extends implements ",
	}
	pySpec = langSpec{
		lineComment: "#", quotes: "\"'", triple: true,
		keywords: " and as assert async await break class continue def del elif else except finally for from global if import in is lambda match case nonlocal not or pass raise return try while with yield ",
		types:    " bool bytes dict float int list object set str tuple type len print range open super isinstance enumerate zip map filter sorted ",
		literals: " True False None ",
		funcDefs: " def ", typeDefs: " class ", decorators: true,
	}
	rustSpec = langSpec{
		lineComment: "//", blockOpen: "/*", blockClose: "*/", quotes: "\"", multiline: "\"",
		keywords: " as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while ",
		types:    " bool char f32 f64 i8 i16 i32 i64 i128 isize str u8 u16 u32 u64 u128 usize String Vec Option Result Box Rc Arc HashMap println print format vec panic assert assert_eq ",
		literals: " true false Some None Ok Err ",
		funcDefs: " fn ", typeDefs: " struct enum trait type impl ", upperTypes: true,
	}
	shSpec = langSpec{
		lineComment: "#", quotes: "\"'", raw: "'", multiline: "\"'", hashComment: true, dollarVars: true,
		keywords: " if then else elif fi for while until do done case esac in function select ",
		types:    " break cd continue eval exec exit export getopts hash pwd readonly return shift test times trap umask unset alias bind builtin caller command declare echo enable help let local logout mapfile printf read readarray source type typeset ulimit unalias set shopt ",
		literals: " true false ",
		funcDefs: " function ",
	}
	cSpec = langSpec{
		lineComment: "//", blockOpen: "/*", blockClose: "*/", quotes: "\"'", preprocessor: true,
		keywords: cLike,
		types:    " char double float int long short signed unsigned void bool size_t ssize_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t FILE printf malloc free ",
		literals: " true false NULL ",
		typeDefs: " struct union enum ",
	}
	cppSpec = langSpec{
		lineComment: "//", blockOpen: "/*", blockClose: "*/", quotes: "\"'", preprocessor: true,
		keywords: cLike + "alignas alignof catch class concept consteval constexpr constinit co_await co_return co_yield decltype delete explicit export friend mutable namespace new noexcept operator override private protected public requires static_assert template this thread_local throw try typename using virtual final ",
		types:    " char double float int long short signed unsigned void bool wchar_t char8_t char16_t char32_t size_t auto std string vector map unordered_map set unique_ptr shared_ptr cout cin endl ",
		literals: " true false nullptr NULL ",
		typeDefs: " class struct union enum namespace ",
	}
	javaSpec = langSpec{
		lineComment: "//", blockOpen: "/*", blockClose: "*/", quotes: "\"'", decorators: true,
		keywords: " abstract assert break case catch class continue default do else enum extends final finally for if implements import instanceof interface native new package private protected public record return static strictfp super switch synchronized this throw throws transient try var void volatile while yield ",
		types:    " boolean byte char double float int long short String Object Integer Long Double Boolean List Map Set ArrayList HashMap System ",
		literals: " true false null ",
		typeDefs: " class interface enum record extends implements ", upperTypes: true,
	}
	sqlSpec = langSpec{
		lineComment: "--", blockOpen: "/*", blockClose: "*/", quotes: "'\"`", ignoreCase: true,
		keywords: " add all alter and as asc begin between by case check column commit constraint create cross database default delete desc distinct drop else end exists foreign from full group having if in index inner insert into is join key left like limit not null offset on or order outer primary references right rollback select set table then transaction union unique update values view when where with ",
		types:    " int integer bigint smallint decimal numeric float real double boolean char varchar text date time timestamp blob json serial count sum avg min max coalesce ",
		literals: " true false ",
	}
	csSpec = langSpec{
		lineComment: "//", blockOpen: "/*", blockClose: "*/", quotes: "\"'", decorators: false,
		keywords: " abstract as async await base break case catch class const continue default delegate do else enum event explicit extern finally fixed for foreach goto if implicit in interface internal is lock namespace new operator out override params private protected public readonly ref return sealed sizeof stackalloc static struct switch this throw try typeof unchecked unsafe using var virtual void volatile while yield record ",
		types:    " bool byte char decimal double float int long object sbyte short string uint ulong ushort dynamic Console List Dictionary Task ",
		literals: " true false null ",
		typeDefs: " class struct interface enum record namespace ", upperTypes: true,
	}
	kotlinSpec = langSpec{
		lineComment: "//", blockOpen: "/*", blockClose: "*/", quotes: "\"'", decorators: true, multiline: "\"",
		keywords: " abstract as break by catch class companion const continue data do else enum external final finally for fun if import in init inline interface internal is lateinit object open operator out override package private protected public return sealed super suspend this throw try typealias val var vararg when where while ",
		types:    " Any Boolean Byte Char Double Float Int Long Nothing Short String Unit List Map Set MutableList println ",
		literals: " true false null ",
		funcDefs: " fun ", typeDefs: " class interface object typealias ", upperTypes: true,
	}
	swiftSpec = langSpec{
		lineComment: "//", blockOpen: "/*", blockClose: "*/", quotes: "\"", decorators: true,
		keywords: " actor as associatedtype async await break case catch class continue default defer deinit do else enum extension fallthrough fileprivate final for func guard if import in init inout internal is lazy let mutating open operator override private protocol public repeat rethrows return self Self static struct subscript super switch throw throws try typealias var weak where while ",
		types:    " Any Bool Character Double Float Int String Void Array Dictionary Set Optional print ",
		literals: " true false nil ",
		funcDefs: " func ", typeDefs: " class struct enum protocol extension actor ", upperTypes: true,
	}
	phpSpec = langSpec{
		lineComment: "// #", blockOpen: "/*", blockClose: "*/", quotes: "\"'", dollarVars: true, hashComment: true,
		keywords: " abstract and array as break case catch class clone const continue declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile extends final finally fn for foreach function global goto if implements include include_once instanceof insteadof interface isset list match namespace new or print private protected public readonly require require_once return static switch throw trait try unset use var while yield ",
		types:    " int float string bool array object mixed void null self parent ",
		literals: " true false null TRUE FALSE NULL ",
		funcDefs: " function ", typeDefs: " class interface trait extends implements ",
	}
	rubySpec = langSpec{
		lineComment: "#", quotes: "\"'`",
		keywords: " alias and begin break case class def defined do else elsif end ensure for if in module next not or redo rescue retry return self super then undef unless until when while yield require require_relative attr_accessor attr_reader attr_writer private protected public ",
		types:    " puts print p raise lambda proc Array Hash String Integer Float ",
		literals: " true false nil ",
		funcDefs: " def ", typeDefs: " class module ", upperTypes: true,
	}
	luaSpec = langSpec{
		lineComment: "--", quotes: "\"'",
		keywords: " and break do else elseif end for function goto if in local not or repeat return then until while ",
		types:    " print pairs ipairs require type tostring tonumber table string math os io setmetatable getmetatable error pcall ",
		literals: " true false nil ",
		funcDefs: " function ",
	}
	hashSpec = langSpec{
		// TOML, Dockerfile, Makefile and friends: comments, strings,
		// numbers and a few words.
		lineComment: "#", quotes: "\"'", hashComment: true,
		keywords: " FROM RUN CMD LABEL EXPOSE ENV ADD COPY ENTRYPOINT VOLUME USER WORKDIR ARG ONBUILD STOPSIGNAL HEALTHCHECK SHELL AS ifeq ifneq ifdef ifndef else endif include export define endef ",
		literals: " true false ",
	}
	diffSpec     = langSpec{mode: modeDiff}
	markupSpec   = langSpec{mode: modeMarkup}
	markdownSpec = langSpec{mode: modeMarkdown}
	jsonSpec     = langSpec{mode: modeJSON, quotes: "\"", lineComment: "//", blockOpen: "/*", blockClose: "*/", literals: " true false null "}
	yamlSpec     = langSpec{mode: modeYAML, quotes: "\"'", literals: " true false null yes no on off ~ "}
	cssSpec      = langSpec{mode: modeCSS, quotes: "\"'", blockOpen: "/*", blockClose: "*/"}
)

// lookup maps a fence language (or file extension) to its table.
func lookup(lang string) *langSpec {
	switch strings.ToLower(strings.TrimSpace(lang)) {
	case "go", "golang":
		return &goSpec
	case "js", "javascript", "jsx", "mjs", "cjs", "node":
		return &jsSpec
	case "ts", "typescript", "tsx", "mts", "cts":
		return &tsSpec
	case "py", "python", "python3", "py3":
		return &pySpec
	case "rs", "rust":
		return &rustSpec
	case "sh", "bash", "shell", "zsh", "ksh", "console", "shellsession":
		return &shSpec
	case "c", "h":
		return &cSpec
	case "cpp", "c++", "cc", "cxx", "hpp", "hh", "hxx":
		return &cppSpec
	case "java":
		return &javaSpec
	case "sql", "mysql", "postgresql", "postgres", "sqlite":
		return &sqlSpec
	case "diff", "patch":
		return &diffSpec
	case "html", "htm", "xhtml", "xml", "svg", "xsd", "xsl", "plist", "vue":
		return &markupSpec
	case "md", "markdown", "mdx":
		return &markdownSpec
	case "json", "jsonc", "json5", "jsonl":
		return &jsonSpec
	case "yaml", "yml":
		return &yamlSpec
	case "css", "scss", "less":
		return &cssSpec
	case "cs", "csharp", "c#":
		return &csSpec
	case "kt", "kotlin", "kts":
		return &kotlinSpec
	case "swift":
		return &swiftSpec
	case "php":
		return &phpSpec
	case "rb", "ruby":
		return &rubySpec
	case "lua":
		return &luaSpec
	case "toml", "ini", "dockerfile", "docker", "makefile", "make", "mk", "conf", "properties", "env", "dotenv":
		return &hashSpec
	}
	return nil
}

// has reports whether word is in the space-separated list.
func has(list, word string) bool {
	if list == "" || word == "" {
		return false
	}
	i := strings.Index(list, word)
	for i >= 0 {
		if list[i-1] == ' ' && i+len(word) < len(list) && list[i+len(word)] == ' ' {
			return true
		}
		j := strings.Index(list[i+1:], word)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// LanguageFromPath guesses a file's highlight language from its extension
// (or name, for Makefile and Dockerfile); "" when unknown.
func LanguageFromPath(path string) string {
	base := path
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	ext := strings.ToLower(base)
	if i := strings.LastIndexByte(ext, '.'); i >= 0 {
		ext = ext[i+1:]
	}
	switch ext {
	case "ts", "tsx", "mts", "cts":
		return "typescript"
	case "js", "jsx", "mjs", "cjs":
		return "javascript"
	case "py", "pyi":
		return "python"
	case "rs":
		return "rust"
	case "go":
		return "go"
	case "java":
		return "java"
	case "c", "h":
		return "c"
	case "cpp", "cc", "cxx", "hpp", "hh", "hxx":
		return "cpp"
	case "sh", "bash", "zsh":
		return "bash"
	case "sql":
		return "sql"
	case "html", "htm", "xml", "svg":
		return "html"
	case "css":
		return "css"
	case "json", "jsonc", "jsonl":
		return "json"
	case "yaml", "yml":
		return "yaml"
	case "md", "markdown":
		return "markdown"
	case "diff", "patch":
		return "diff"
	case "cs":
		return "csharp"
	case "kt", "kts":
		return "kotlin"
	case "swift":
		return "swift"
	case "php":
		return "php"
	case "rb":
		return "ruby"
	case "lua":
		return "lua"
	case "toml":
		return "toml"
	case "scss", "less":
		return "css"
	case "dockerfile":
		return "dockerfile"
	case "makefile", "mk":
		return "makefile"
	}
	return ""
}
