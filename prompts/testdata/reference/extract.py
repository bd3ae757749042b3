import json,glob,sys
sys.path.insert(0,'/work/shared/conformance')  # the harness's normalize.py
import normalize as N
out={}
for f in sorted(glob.glob('raw_*.jsonl')):
    if f.endswith('stderr.txt'): continue
    n=f[4:-6]
    recs=N.normalize_records(N.read_jsonl(f),[],False,literal_prose=True)
    for r in recs:
        d=r.get('data')
        if isinstance(d,dict) and d.get('type')=='message_start' and d['message'].get('role')=='system':
            out[n]=d['message']['sections']; break
    else:
        print("NO SYSTEM", n)
json.dump(out,open('sections.json','w'),indent=1,ensure_ascii=False)
for n,s in out.items():
    print("#################",n)
    for k,v in s.items():
        if k in('docs',): v=v[:60]
        print("==",k); print(v)
