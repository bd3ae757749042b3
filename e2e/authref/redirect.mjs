// Loaded with `node --import` when the reference signs in to a built-in
// provider for a recording: requests to the hosts in PI_AUTHREF_HOSTS
// ("host=prefix,…", authref.Hosts) go to PI_AUTHREF_URL/_host/<prefix>
// instead, where authref.Providers answers them. Its clock stands still as
// with fixclock.mjs.
const base = process.env.PI_AUTHREF_URL;
const hosts = new Map((process.env.PI_AUTHREF_HOSTS ?? "").split(",").filter(Boolean).map((kv) => kv.split("=")));
// The CLI installs undici's fetch over the global one, so every fetch
// assigned to the global is wrapped as it is set.
const wrap = (realFetch) => (input, init) => {
	const raw = typeof input === "string" || input instanceof URL ? String(input) : input.url;
	const u = new URL(raw);
	const prefix = hosts.get(u.host);
	if (prefix === undefined) return realFetch(input, init);
	const to = `${base}/_host/${prefix}${u.pathname}${u.search}`;
	return realFetch(typeof input === "string" || input instanceof URL ? to : new Request(to, input), init);
};
let current = wrap(globalThis.fetch);
Object.defineProperty(globalThis, "fetch", {
	configurable: true,
	get: () => current,
	set: (f) => {
		current = wrap(f);
	},
});
const fixed = 1767225600000;
Date.now = () => fixed;
