/**
 * Checks the shape of a client's JSON-RPC request before the SDK sees it, so a malformed `tools/call` or
 * `prompts/get` answers -32602 with one readable line (the SDK's own answer is a raw zod dump), on HTTP and
 * stdio alike. Only the params the gateway reads are checked; the rest stays the SDK's business.
 */
export const invalidParams = -32602;

export interface ShapeProblem {
  code: number;
  message: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const kind = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "string" ? "a string" : typeof value;

/** A problem with one request message, or undefined when the SDK may take it. */
function requestShapeProblem(message: unknown): ShapeProblem | undefined {
  if (!isObject(message) || typeof message.method !== "string") return undefined;
  const { method, params } = message;
  if (method !== "tools/call" && method !== "prompts/get") return undefined;
  const what = method === "tools/call" ? "tool" : "prompt";
  if (params === undefined)
    return { code: invalidParams, message: `${method} needs params: { "name": "<${what} name>", "arguments": { … } }.` };
  if (!isObject(params)) return { code: invalidParams, message: `${method} params must be an object, not ${kind(params)}.` };
  if (params.name === undefined) return { code: invalidParams, message: `${method} needs params.name, the ${what} to run.` };
  if (typeof params.name !== "string" || params.name === "")
    return { code: invalidParams, message: `params.name must be the ${what}'s name as a non-empty string, not ${kind(params.name)}.` };
  const args = params.arguments;
  if (args !== undefined && !isObject(args))
    return { code: invalidParams, message: `params.arguments must be an object of named arguments, not ${kind(args)}.` };
  if (method === "prompts/get" && args) {
    const bad = Object.entries(args).find(([, value]) => typeof value !== "string");
    if (bad) return { code: invalidParams, message: `Prompt argument '${bad[0]}' must be a string, not ${kind(bad[1])}.` };
  }
  return undefined;
}

/**
 * What the gateway refuses in a message text before the SDK sees it, on every transport: duplicate keys anywhere,
 * or a malformed tools/call / prompts/get in the message (or in any message of a batch). `parsed` is `text` parsed.
 */
export function messageProblem(text: string, parsed: unknown): ShapeProblem | undefined {
  const duplicate = duplicateKey(text);
  if (duplicate !== undefined)
    return { code: invalidParams, message: `The key '${duplicate}' appears twice in one object; send each key once.` };
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const problem = requestShapeProblem(message);
    if (problem) return problem;
  }
  return undefined;
}

/** The id to answer a refused message with: its own when it is a single request with one, else null. */
export function requestIdOf(parsed: unknown): string | number | null {
  const id = (parsed as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/**
 * The first key that appears twice in one object of a JSON text, or undefined. JSON.parse keeps the last
 * silently; a request with `"name"` twice would otherwise run a tool other than the one a reviewer reads.
 */
function duplicateKey(text: string): string | undefined {
  const stack: Set<string>[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 123 /* { */) {
      stack.push(new Set());
      i++;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
      i++;
    } else if (c === 91 /* [ */) {
      // arrays hold no keys: push a marker so that strings inside are not taken for keys
      stack.push(arrayMarker);
      i++;
    } else if (c === 34 /* " */) {
      let j = i + 1;
      let escaped = false;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 92) escaped = true;
        if (d === 34) break;
        j++;
        if (d === 92) j++;
      }
      const raw = text.slice(i + 1, j);
      i = j + 1;
      while (i < n && isSpace(text.charCodeAt(i))) i++;
      const top = stack[stack.length - 1];
      if (text.charCodeAt(i) === 58 /* : */ && top && top !== arrayMarker) {
        const key = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.has(key)) return key;
        top.add(key);
      }
    } else {
      i++;
    }
  }
  return undefined;
}

const arrayMarker = new Set<string>();
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
