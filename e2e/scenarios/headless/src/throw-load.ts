// An extension whose factory throws: the load error and what pi does next.
export default function (pi: any) {
  pi.registerCommand("never", { description: "never registered", handler: async () => {} });
  throw new Error("factory exploded");
}
