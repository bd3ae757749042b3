import json
base_steps=[{"name":"prompt","send":{"id":"p1","type":"prompt","message":"hi"},"wait":{"all":[{"response":"p1"},{"event":"agent_settled"}]},"timeout_s":60}]
skill = "---\nname: demo-skill\ndescription: Demo skill for <testing> & \"quotes\". Use when asked for demos.\n---\nBody.\n"
agents={"AGENTS.md":"Global rule.\n"}
S={
 "default_agents_append": dict(agent_files=agents, files={"AGENTS.md":"\ufeffProject rule: be nice.\n","sub/CLAUDE.md":"x","extra.md":"Appended from file.\n"}, args=["--append-system-prompt","Extra text.","--append-system-prompt","extra.md"]),
 "custom_prompt": dict(agent_files=agents, files={"AGENTS.md":"Project rule.\n"}, args=["--system-prompt","Custom prompt.","--append-system-prompt","Extra."]),
 "all_tools_skills": dict(files={".pi/skills/demo-skill/SKILL.md":skill,"CLAUDE.md":"claude rule\n","AGENTS.MD":"upper\n"}, args=["--approve","--tools","read,bash,edit,write,grep,find,ls"]),
 "read_grep_find_ls": dict(args=["--tools","read,grep,find,ls"]),
 "bash_only_skills": dict(files={".pi/skills/demo-skill/SKILL.md":skill}, args=["--approve","--tools","bash"]),
 "no_tools_skills": dict(files={".pi/skills/demo-skill/SKILL.md":skill}, args=["--approve","--no-tools"]),
 "system_md_files": dict(agent_files={"SYSTEM.md":"Global system.\n","APPEND_SYSTEM.md":"Global append.\n"}, files={".pi/SYSTEM.md":"Project system.\n",".pi/APPEND_SYSTEM.md":"Project append.\n"}, args=["--approve"]),
 "system_md_untrusted": dict(agent_files={"SYSTEM.md":"Global system.\n","APPEND_SYSTEM.md":"Global append.\n"}, files={".pi/SYSTEM.md":"Project system.\n",".pi/APPEND_SYSTEM.md":"Project append.\n"}, args=[]),
}
for n,s in S.items():
    d={"description":n,"mock":{"turns":[{"text":"ok"}]},"steps":base_steps}
    d.update(s)
    json.dump(d,open("scenarios/"+n+".json","w"),indent=1)
