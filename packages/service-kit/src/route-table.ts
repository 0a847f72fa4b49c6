/**
 * What an app really answers, for the check that every REST route is declared (tests read it; the OpenAPI
 * document never does). Express has no public way to list its routes, so this walks its router's route layers;
 * if an express upgrade moves them, the check finds no routes and its tests fail loudly rather than pass.
 */
import { declaredRoutes, routeMethods, type RouteDeclaration, type RouteMethod } from "./rest-routes.js";

/** One row of an app's route table: what express will answer, and its declaration when it has one. */
export interface RouteEntry {
  method: RouteMethod;
  path: string;
  declaration?: RouteDeclaration;
}

interface LayerLike {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: LayerLike[] };
  rawPath?: unknown;
  slash?: boolean;
}

/** Something with a route table: an express app (its router) or a router. */
export type RouteSource = { router?: { stack?: unknown[] }; stack?: unknown[] };

/**
 * Every method and path the sources answer, in their order (the first source to answer a method and path wins,
 * as express does), each with the declaration `restRoutes` keeps for it. Routers mounted without a path are followed.
 */
export function routeTable(sources: readonly RouteSource[]): RouteEntry[] {
  const declared = new Map(declaredRoutes(sources).map((route) => [`${route.method} ${route.path}`, route.declaration]));
  const seen = new Set<string>();
  const out: RouteEntry[] = [];
  const walk = (stack: LayerLike[], prefix: string): void => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = ([] as string[]).concat(layer.route.path);
        for (const method of routeMethods) {
          if (!layer.route.methods[method]) continue;
          for (const path of paths) {
            const key = `${method} ${prefix + path}`;
            if (seen.has(key)) continue;
            seen.add(key);
            const declaration = declared.get(key);
            out.push({ method, path: prefix + path, ...(declaration ? { declaration } : {}) });
          }
        }
      } else if (layer.handle?.stack) {
        const mount = layer.slash || typeof layer.rawPath !== "string" ? "" : layer.rawPath;
        walk(layer.handle.stack, prefix + mount);
      }
    }
  };
  for (const source of sources) walk((source.router?.stack ?? source.stack ?? []) as LayerLike[], "");
  return out;
}
