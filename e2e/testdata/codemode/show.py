import json,sys
for l in open(sys.argv[1]+'/log.jsonl'):
    r=json.loads(l); b=r.get('body')
    if isinstance(b,str): b=json.loads(b)
    print("==== req", r['seq'])
    if r['seq']==1 and len(sys.argv)>2:
      for t in b.get('tools',[]):
        f=t['function']; print("TOOL", f['name'], json.dumps(f['parameters'])); print(f['description']); print()
    m=b['messages'][-1]
    if m['role']=='tool': print("TOOLRESULT", json.dumps(m)[:3000])
