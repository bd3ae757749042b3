package main

// Version is the pi release whose behaviour this binary matches; clients
// compare it, so it is the reference's number.
const Version = "1.6.0"

// helpText is our own wording; flag names and short forms are the facts.
const helpText = `pi - a coding agent for your terminal, with read, bash, edit and write tools

Usage:
  pi [options] [--] [@files...] [messages...]

Commands:
  pi install <source> [-l]       Install a package (npm:, git:, a URL or a path) and add it to settings
  pi remove <source> [-l]        Remove a package and its settings entry (alias: uninstall)
  pi update [source|self|pi]     Update the installed packages (--extensions) or one of them
  pi list                        List the packages in the user's and the project's settings
  pi config [-l]                 Turn package resources on or off (not built yet)
  pi auth <command>              Log in or out, and check provider credentials
  pi mcp <command>               Manage MCP servers
  pi <command> --help            Help for one command

Modes:
  --mode <text|json|rpc>         Output: text (default), a JSON event stream, or the RPC protocol
  --print, -p                    Run the prompts once and print the final answer

Model:
  --provider <name>              Limit --model lookup to one provider (needs --model)
  --model <pattern>              Model id, "provider/id" or fuzzy pattern, optionally ":<thinking>"
  --models <patterns>            Comma-separated model patterns to choose and cycle from
  --api-key <key>                API key for the selected model's provider
  --thinking <level>             off, minimal, low, medium, high, xhigh or max
  --list-models [search]         Show the models you can use, optionally filtered

Prompt:
  --system-prompt <text|file>    Replace the built-in system prompt
  --append-system-prompt <text|file>
                                 Add text to the system prompt (repeatable)
  --no-context-files, -nc        Skip AGENTS.md and CLAUDE.md files

Sessions:
  --continue, -c                 Continue this directory's most recent session
  --resume, -r                   Choose a session to resume
  --session <path|id>            Open a session file, or a session by full or partial id
  --session-id <id>              Use this project's session with that id, creating it if needed
  --fork <path|id>               Copy a session into a new one for this directory
  --session-dir <dir>            Where sessions are stored and looked up
  --no-session                   Keep the session in memory only
  --name, -n <name>              Name the session

Tools:
  --tools, -t <list>             Only these tools (names or * patterns), or +name/-name edits of the defaults
  --exclude-tools, -xt <list>    Turn off tools matching these names or patterns
  --no-tools, -nt                Start with no tools at all
  --no-builtin-tools, -nbt       Start without the built-in tools, keeping extension tools

Extensions and resources:
  --extension, -e <path>         Load an extension or package for this run (repeatable; npm:, git:
                                 and builtin:<name> too)
  --no-extensions, -ne           Do not discover extensions (explicit -e still loads)
  --no-mcp                       Turn off the built-in MCP support for this run
  --skill <path>                 Load a skill file or folder (repeatable)
  --no-skills, -ns               Do not discover skills
  --prompt-template <path>       Load a prompt template file or folder (repeatable)
  --no-prompt-templates, -np     Do not discover prompt templates
  --theme <path>                 Load a theme (repeatable)
  --use-theme <name>             Theme for this run
  --no-themes                    Do not discover themes
  --approve, -a                  Trust this project's local files for this run
  --no-approve, -na              Ignore this project's local files for this run

Other:
  --export <file> [output]       Write a session file as HTML and exit
  --verbose                      Show more at startup
  --tui-mode <mode>              fullscreen or regular
  --offline                      No network at startup (like PI_OFFLINE=1)
  --                             Stop reading options; the rest are messages and @files
  --help, -h                     Show this text
  --version, -v                  Show the version

Examples:
  pi -p "Summarise README.md"
  pi --mode json @notes.md "What is missing here?"
  pi --model openai/gpt-4o --thinking high -p "Plan the refactor"
  pi --tools read,grep,find,ls -p "Review src/"
  echo "diff" | pi -p "Explain this change"

Environment:
  PI_CODING_AGENT_DIR            Agent folder (default ~/.pi/agent)
  PI_CODING_AGENT_SESSION_DIR    Session folder
  PI_OFFLINE                     1, true or yes: no network at startup
  OPENAI_API_KEY, ANTHROPIC_API_KEY, ...
                                 Provider keys
`
