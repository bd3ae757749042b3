# A local fake npm registry for crosscheck.sh: serves packuments and tarballs
# built at start (pi-hello with a dependency, @acme/tool) on 127.0.0.1:<port>.
import json, os, tarfile, io, hashlib, base64, sys, http.server, threading
PORT=int(sys.argv[1])
base=f"http://127.0.0.1:{PORT}"
pkgs={}
def tgz(files):
    bio=io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w:gz") as t:
        for name,data in files.items():
            b=data.encode()
            ti=tarfile.TarInfo("package/"+name); ti.size=len(b); ti.mode=0o644
            t.addfile(ti, io.BytesIO(b))
    return bio.getvalue()
def add(name, version, files, deps=None, peer=None):
    pj={"name":name,"version":version}
    if deps: pj["dependencies"]=deps
    if peer: pj["peerDependencies"]=peer
    if "package.json.extra" in files:
        pj.update(json.loads(files.pop("package.json.extra")))
    files=dict(files); files["package.json"]=json.dumps(pj)
    data=tgz(files)
    integ="sha512-"+base64.b64encode(hashlib.sha512(data).digest()).decode()
    fname=name.split("/")[-1]+"-"+version+".tgz"
    p=pkgs.setdefault(name,{"name":name,"dist-tags":{},"versions":{},"_tarballs":{}})
    v=dict(pj); v["dist"]={"tarball":f"{base}/{name}/-/{fname}","integrity":integ,"shasum":hashlib.sha1(data).hexdigest()}
    p["versions"][version]=v; p["dist-tags"]["latest"]=version; p["_tarballs"][fname]=data
ext='''export default function (pi) { pi.registerCommand("hello", { description: "say hello", handler: async () => {} }); }'''
add("dep-a","1.0.0",{"index.js":"module.exports=1"})
add("dep-a","1.2.0",{"index.js":"module.exports=2"})
add("pi-hello","1.0.0",{"extensions/hello.ts":ext,"skills/greet/SKILL.md":"---\nname: greet\ndescription: Greets\n---\nhi\n","prompts/wave.md":"---\ndescription: wave\n---\nwave\n"},deps={"dep-a":"^1.0.0"},peer={"@earendil-works/pi-coding-agent":"*"})
add("@acme/tool","2.0.0",{"index.ts":ext.replace("hello","acme")})
# pi-big: 20 transitive dependencies (dep-0..dep-9 direct, each needing
# one of dep-10..dep-19), for bench.sh.
for i in range(20):
    add(f"dep-{i}","1.0.0",{"index.js":"module.exports=%d\n"%i + "// padding\n"*200},deps=({f"dep-{i+10}":"^1.0.0"} if i<10 else None))
add("pi-big","1.0.0",{"extensions/big.ts":ext.replace("hello","big")},deps={f"dep-{i}":"^1.0.0" for i in range(10)})
class H(http.server.BaseHTTPRequestHandler):
    disable_nagle_algorithm = True
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def do_GET(self):
        path=self.path.split("?")[0]
        pass
        from urllib.parse import unquote
        path=unquote(path)[1:]
        if "/-/" in path:
            name,fn=path.split("/-/")
            p=pkgs.get(name)
            if p and fn in p["_tarballs"]:
                d=p["_tarballs"][fn]; self.send_response(200); self.send_header("Content-Length",str(len(d))); self.end_headers(); self.wfile.write(d); return
        p=pkgs.get(path)
        if p:
            d=json.dumps({k:v for k,v in p.items() if k!="_tarballs"}).encode()
            self.send_response(200); self.send_header("Content-Type","application/json"); self.send_header("Content-Length",str(len(d))); self.end_headers(); self.wfile.write(d); return
        d=b'{"error":"Not found"}'; self.send_response(404); self.send_header("Content-Length",str(len(d))); self.end_headers(); self.wfile.write(d)
class S(http.server.ThreadingHTTPServer):
    request_queue_size = 128  # a burst of parallel connects must not overflow the backlog
S(("127.0.0.1",PORT),H).serve_forever()
