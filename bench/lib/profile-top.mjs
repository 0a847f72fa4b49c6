// Prints the top frames of a .cpuprofile by self time, and self time by package, for the bench notes.
// Usage: node lib/profile-top.mjs <file.cpuprofile> [N=25]   (INCLUSIVE=fn,fn… and LAYERS=1 add sections)
import { readFileSync } from "node:fs";

const [file, n = "25"] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, "utf8"));
const self = new Map();
const dt = new Map();
profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
let total = 0;
for (const node of profile.nodes) {
  const us = dt.get(node.id) ?? 0;
  total += us;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url
    .replace(/^file:\/\//, "")
    .replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "")
    .replace(/.*\/work\/wt\/[^/]+\//, "");
  const key = `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + us);
}
const byPackage = new Map();
for (const [key, us] of self) {
  const where = key.split(" ").slice(1).join(" ");
  const pkg = where.startsWith("@")
    ? where.split("/").slice(0, 2).join("/")
    : where.startsWith("node:") || where === ":0"
      ? where.split(":")[0] || "(native)"
      : where.split("/")[0];
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1)} %`;
console.log(`total ${(total / 1000).toFixed(0)} ms sampled\n\ntop ${n} frames by self time:`);
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(n))) console.log(`${pct(us).padStart(7)}  ${key}`);
console.log("\nself time by package:");
for (const [pkg, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${pct(us).padStart(7)}  ${pkg}`);

// Inclusive time of chosen functions (a frame counts once per sample even when it recurses): INCLUSIVE=name,name…
if (process.env.INCLUSIVE) {
  const wanted = process.env.INCLUSIVE.split(",");
  const parent = new Map();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map(wanted.map((w) => [w, 0]));
  for (const node of profile.nodes) {
    const us = dt.get(node.id) ?? 0;
    if (!us) continue;
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const name = byId.get(id).callFrame.functionName;
      for (const w of wanted) {
        if (name !== w || seen.has(w)) continue;
        seen.add(w);
        inclusive.set(w, inclusive.get(w) + us);
      }
    }
  }
  console.log("\ninclusive time:");
  for (const [w, us] of inclusive) console.log(`${pct(us).padStart(7)}  ${w}`);
}

// Busy time by layer: each sample goes to the nearest frame of a package or of our code (node internals and native
// frames count for their caller), so that a socket write counts for whoever wrote. LAYERS=1 [CALLS=n for ms/call].
if (process.env.LAYERS) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const layerOf = ({ url, functionName }) => {
    if (["(idle)", "(garbage collector)", "(program)"].includes(functionName)) return functionName;
    if (!url || url.startsWith("node:")) return undefined;
    const ours = url.match(/\/(gateway|packages\/[^/]+|services\/[^/]+|bench)\/(src\/)?/);
    if (!url.includes("node_modules") && ours) return ours[1];
    const pkg = url.replace(/.*node_modules\//, "").split("/");
    return pkg[0].startsWith("@") ? `${pkg[0]}/${pkg[1]}` : pkg[0];
  };
  const layers = new Map();
  let busy = 0;
  for (const node of profile.nodes) {
    const us = dt.get(node.id) ?? 0;
    if (!us || node.callFrame.functionName === "(idle)") continue;
    busy += us;
    let layer;
    for (let id = node.id; id !== undefined && !layer; id = parent.get(id)) layer = layerOf(byId.get(id).callFrame);
    layer ??= "node (no caller of ours)";
    layers.set(layer, (layers.get(layer) ?? 0) + us);
  }
  const calls = Number(process.env.CALLS ?? 0);
  console.log(`\nbusy time by layer (idle left out)${calls ? `, per call over ${calls} calls` : ""}:`);
  for (const [layer, us] of [...layers].sort((a, b) => b[1] - a[1]).slice(0, 20))
    console.log(`${((100 * us) / busy).toFixed(1).padStart(6)} %${calls ? `  ${(us / 1000 / calls).toFixed(3)} ms` : ""}  ${layer}`);
}
