/**
 * The URI templates resource families declare (`bancada://scripts/{id}`): literal text and `{name}` variables, the
 * simple form of RFC 6570. A variable matches one path segment (no `/`), except a variable that ends the template,
 * which takes the rest of the URI — so `bancada://boxes/{box}/files/{path}` reads `src/main.c`. Values are
 * percent-decoded; a URI that does not decode is no match.
 */

/** The names of a template's variables, in order. */
export function templateVariables(template: string): string[] {
  return [...template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((match) => match[1]!);
}

const compiled = new Map<string, RegExp>();

function patternOf(template: string): RegExp {
  let pattern = compiled.get(template);
  if (!pattern) {
    const parts = template.split(/(\{[A-Za-z_][A-Za-z0-9_]*\})/);
    const last = parts.length - 1;
    const source = parts
      .map((part, index) => {
        if (!/^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(part)) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        // the template's last part is "" when it ends with this variable
        return index === last - 1 && parts[last] === "" ? "(.+)" : "([^/]+)";
      })
      .join("");
    pattern = new RegExp(`^${source}$`);
    compiled.set(template, pattern);
  }
  return pattern;
}

/** The variables of `uri` under `template`, or undefined when the URI is not of that template. */
export function matchUriTemplate(template: string, uri: string): Record<string, string> | undefined {
  const match = patternOf(template).exec(uri);
  if (!match) return undefined;
  const names = templateVariables(template);
  const variables: Record<string, string> = {};
  try {
    names.forEach((name, index) => (variables[name] = decodeURIComponent(match[index + 1]!)));
  } catch {
    return undefined;
  }
  return variables;
}
