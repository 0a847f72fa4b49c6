// The conformance suite 0.1.16 imports fs.globSync (Node ≥ 22). On Node 20 this loader hook gives its bundle a
// small stand-in (recursive readdir + suffix match: the suite only globs "**/<name>.json"). Used by run.mjs.
import { register } from "node:module";
import { isMainThread } from "node:worker_threads";

if (isMainThread && !("globSync" in (await import("node:fs")))) register(new URL(import.meta.url));

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!url.includes("@modelcontextprotocol/conformance/dist/") || loaded.format !== "module") return loaded;
  const source = String(loaded.source).replace(/globSync as (\w+),/, (_all, name) => {
    globName = name;
    return "";
  });
  if (!globName) return loaded;
  const stand = `import * as __fs from "node:fs";var ${globName}=(pattern,{cwd})=>{const tail=pattern.replace(/^\\*\\*\\//,"");return __fs.readdirSync(cwd,{recursive:true}).map(String).filter((f)=>f===tail||f.endsWith("/"+tail));};`;
  globName = undefined;
  // after the code, not before: the bundle starts with a shebang line (function declarations would hoist, a const does not
  // need to: the stand-in is only called once the suite runs)
  return { ...loaded, source: `${source}\n${stand}` };
}
let globName;
