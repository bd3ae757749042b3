// JSON.stringify with an indent, as Node 22 prints it (goja lost a level after an empty array).
const cases = [
  [{e:[],k:{a:1},z:[1,{}],w:{}}, null, 2],
  [{a:[[],[{}]],b:"x\u2028y",c:[null,true,1.5e300]}, null, 4],
  [[], null, 2], [{}, null, "\t"], ["s", null, 2], [undefined, null, 2], [5, null, 2],
  [{a:{b:{c:[]}}}, null, "abcdefghijklmno"], [{a:1,b:2}, ["b"], 3], [{a:1,b:{c:2}}, (k,v)=> k==="c"?undefined:v, 2],
  [{a:[1]}, null, 20], [{a:[1]}, null, 0], [{a:[1]}, null, new Number(3)], [{a:[1]}, null, new String("--")], [{a:[1]}, null, 1.7],
  [{d: new Date(0), t: {toJSON(){return {x:[]}}}}, null, 2],
];
for (const [v, r, s] of cases) console.log(JSON.stringify(JSON.stringify(v, r, s)));
console.log(JSON.stringify.length, JSON.stringify.name, Object.keys(JSON).length);
