#!/usr/bin/env bash
# Compatibility corpus: check third-party pi extensions (packages from the npm
# registry, files from public GitHub repositories) with extparity.py, our pi
# against the reference.
#
# Local only, not CI: it needs the npm registry to install the pinned packages
# (and GitHub for the pinned repository files that are not in the cache yet).
#
#   bench/corpus/run.sh [extparity.py options...]
#
# Environment:
#   CORPUS_CACHE  where packages are installed (default ~/.cache/pi-corpus)
#   PI_BIN        our binary (default: built from this worktree into $CORPUS_CACHE/pi)
#   PI_REF_CMD    reference command line (default: install-reference.sh's output)
#   SHARED        the shared/ folder with conformance/ (default: ../shared beside the repo,
#                 else /work/shared)
#   JOBS          extensions checked in parallel (default 2)
#
# Each package gets its own folder, as pi itself installs each package apart, so
# their peer-dependency ranges cannot conflict with each other. A package whose
# peer ranges conflict with its own dependencies is retried with
# --legacy-peer-deps (the host provides the pi packages anyway).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cache="${CORPUS_CACHE:-$HOME/.cache/pi-corpus}"
jobs="${JOBS:-2}"
if [[ -z "${SHARED:-}" ]]; then
	if [[ -d "$repo/../shared/conformance" ]]; then SHARED="$repo/../shared"; else SHARED=/work/shared; fi
fi
conf="$SHARED/conformance"
mkdir -p "$cache/pkgs"

# 1. Install every pinned package and check its integrity against the manifest.
python3 - "$here/corpus.json" > "$cache/specs.tsv" <<'EOF'
import json, sys
for p in json.load(open(sys.argv[1]))["packages"]:
    slug = (p["name"] + "@" + p["version"]).replace("/", "_").replace("@", "_")
    print("\t".join([slug, p["name"], p["version"], p["integrity"], ",".join(p["extensions"])]))
EOF

: > "$cache/paths.txt"
while IFS=$'\t' read -r slug name version integrity entries; do
	dir="$cache/pkgs/$slug"
	pkg="$dir/node_modules/$name"
	if [[ ! -f "$pkg/package.json" ]]; then
		mkdir -p "$dir"
		echo '{"private": true}' > "$dir/package.json"
		echo "install $name@$version" >&2
		if ! (cd "$dir" && npm install --ignore-scripts --no-audit --no-fund "$name@$version" > install.log 2>&1); then
			(cd "$dir" && npm install --ignore-scripts --no-audit --no-fund --legacy-peer-deps "$name@$version" > install.log 2>&1) ||
				{ echo "corpus: npm install $name@$version failed, see $dir/install.log" >&2; exit 1; }
		fi
	fi
	got="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["packages"]["node_modules/"+sys.argv[2]].get("integrity",""))' "$dir/package-lock.json" "$name")"
	if [[ "$got" != "$integrity" ]]; then
		echo "corpus: $name@$version integrity $got, manifest pins $integrity" >&2
		exit 1
	fi
	# Expand the manifest's entries the way pi's package rules do: a file is one
	# extension; a folder with index.ts/index.js is one; any other folder holds
	# one extension per .ts/.js file or per subfolder with an index.
	IFS=',' read -ra list <<< "$entries"
	for e in "${list[@]}"; do
		p="$pkg/${e#./}"
		if [[ -f "$p" ]]; then
			echo "$p" >> "$cache/paths.txt"
		elif [[ -f "$p/index.ts" || -f "$p/index.js" ]]; then
			echo "$p" >> "$cache/paths.txt"
		elif [[ -d "$p" ]]; then
			for f in "$p"/*; do
				if [[ -f "$f" && ( "$f" == *.ts || "$f" == *.js ) ]]; then echo "$f" >> "$cache/paths.txt"
				elif [[ -f "$f/index.ts" || -f "$f/index.js" ]]; then echo "$f" >> "$cache/paths.txt"; fi
			done
		else
			echo "corpus: $name@$version: entry $e not found" >&2
			exit 1
		fi
	done
done < "$cache/specs.tsv"
npm_exts=$(wc -l < "$cache/paths.txt")

# 2. Extensions published only as files in public GitHub repositories, pinned
# by repository, commit and the sha256 of every file. Each is fetched with git
# at its commit into $cache/github/<owner>_<repo>@<commit>/ when a file there
# is missing; a file already in the cache is used as it is (this machine cannot
# reach GitHub, so the cache was filled from the same commits by hand). Either
# way every file's sha256 must equal the pinned one.
python3 - "$here/corpus.json" > "$cache/github.tsv" <<'PYEOF'
import json, sys
for g in json.load(open(sys.argv[1])).get("github", []):
    for path, sha in g["files"].items():
        print("\t".join(["file", g["repo"], g["commit"], path, sha]))
    for e in g["extensions"]:
        print("\t".join(["ext", g["repo"], g["commit"], e, ""]))
PYEOF
gh_repos=0
fetch_github() { # repo commit dest
	local tmp
	tmp="$(mktemp -d)"
	if timeout 120 git clone --quiet --filter=blob:none --no-checkout "https://github.com/$1.git" "$tmp/r" 2> "$tmp/err" &&
		git -C "$tmp/r" checkout --quiet "$2" 2>> "$tmp/err"; then
		mkdir -p "$3"
		(cd "$tmp/r" && git ls-files -z | xargs -0 cp --parents -t "$3")
		rm -rf "$tmp"
		return 0
	fi
	echo "corpus: git clone of $1 at $2 failed: $(tail -1 "$tmp/err")" >&2
	rm -rf "$tmp"
	return 1
}
declare -A fetched=()
while IFS=$'\t' read -r kind ghrepo commit path sha; do
	dir="$cache/github/${ghrepo//\//_}@$commit"
	if [[ "$kind" == ext ]]; then
		echo "$dir/$path" >> "$cache/paths.txt"
		continue
	fi
	[[ -n "${fetched[$dir]:-}" ]] || { fetched[$dir]=1; gh_repos=$((gh_repos + 1)); }
	if [[ ! -f "$dir/$path" ]]; then
		echo "fetch $ghrepo@$commit" >&2
		fetch_github "$ghrepo" "$commit" "$dir" ||
			{ echo "corpus: $ghrepo@$commit: $path is neither in $dir nor fetchable" >&2; exit 1; }
	fi
	got="$(sha256sum "$dir/$path" | cut -d' ' -f1)"
	if [[ "$got" != "$sha" ]]; then
		echo "corpus: $ghrepo@$commit $path sha256 $got, manifest pins $sha" >&2
		exit 1
	fi
done < "$cache/github.tsv"
echo "corpus: $(wc -l < "$cache/paths.txt") extensions: $npm_exts from $(wc -l < "$cache/specs.tsv") npm packages, $(( $(wc -l < "$cache/paths.txt") - npm_exts )) from $gh_repos GitHub repository commits" >&2

# 3. Our binary and the reference.
pi="${PI_BIN:-}"
if [[ -z "$pi" ]]; then
	pi="$cache/pi"
	(cd "$repo" && CGO_ENABLED=0 go build -o "$pi" ./cmd/pi)
fi
ref="${PI_REF_CMD:-$("$conf/install-reference.sh")}"

# 4. Compare. Extensions without a tool of their own get a bash call so their
# tool_call/tool_result hooks run. Some packages take long to load in either
# binary on two shared cores (the reference took over 55 s to answer
# get_commands with pi-subagents, ours 20 s to compile pi-mermaid's 23 MB
# bundle), so one run may take 120 s; a later --timeout in "$@" wins.
# e2e/extparity/run.py is extparity.py with the harness fixes its docstring
# lists (the reference's built-in extensions off on both sides among them).
exec env PI_CONFORMANCE_DIR="$conf" python3 "$repo/e2e/extparity/run.py" --pi "$pi" --ref "$ref" --paths-from "$cache/paths.txt" \
	--fallback-call 'bash:{"command": "echo extparity"}' -j "$jobs" --timeout 120 "$@"
