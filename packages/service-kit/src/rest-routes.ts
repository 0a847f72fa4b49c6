/**
 * REST routes declared once: the route's method and path, the zod schemas its handler parses with, who may call
 * it and a one-line summary. `restRoutes(router)` registers the handler on the express router and keeps the
 * declaration on the route itself, so the OpenAPI document (openapi.ts) is read from the router's own route
 * table: a route added without a declaration shows up there as undocumented (and a test fails).
 */
import type { Request, RequestHandler, Response, NextFunction, Router } from "express";
import type { z } from "zod";
import type { Access } from "@bancada/contracts";

export const routeMethods = ["get", "post", "put", "patch", "delete"] as const;
export type RouteMethod = (typeof routeMethods)[number];

/**
 * Who may call a route: the tool it mirrors or its `restAccess` (a key with that scope, and writes when it
 * writes), `"key"` any working key, `"admin"` the operator's admin token, `"signed"` no key but a signed link, `"public"` anyone.
 */
export type RouteCaller = Access | "key" | "admin" | "signed" | "public";

export interface RouteDeclaration {
  summary: string;
  description?: string;
  /** Who may call it; the handler checks the same access (authorizedPrincipal). */
  access: RouteCaller;
  /** The path parameters' schema (else each `:name` is a plain string). */
  params?: z.ZodType;
  /** The query string's schema (an object). */
  query?: z.ZodType;
  /**
   * The JSON body's schema: the one the handler parses with. Fields the route fills itself (path parameters
   * always, header values named in `notInBody`) are left out of the document's body. `"bytes"`: a raw body.
   */
  body?: z.ZodType | "bytes";
  notInBody?: readonly string[];
  /** Request headers the route reads (name → what to send). */
  headers?: Readonly<Record<string, string>>;
  /** The success status (200 unless said) and what it answers. */
  status?: number;
  response?: z.ZodType | "bytes";
  responseDescription?: string;
}

/** One row of an app's route table: what express will answer, and its declaration when it has one. */
export interface RouteEntry {
  method: RouteMethod;
  path: string;
  declaration?: RouteDeclaration;
}

/** The `:name` parameters of an express path, as express's own route typing reads them. */
type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<string, string>;

type Handler<Path extends string> = (req: Request<PathParams<Path>>, res: Response, next: NextFunction) => unknown;
type Declare = <Path extends string>(path: Path, declaration: RouteDeclaration, ...handlers: Handler<Path>[]) => void;

export interface RestRoutes {
  get: Declare;
  post: Declare;
  put: Declare;
  patch: Declare;
  delete: Declare;
}

const declarationsKey = Symbol("routeDeclarations");
type DeclaredRoute = { [declarationsKey]?: Partial<Record<RouteMethod, RouteDeclaration>> };

/** Declares routes on `router`: `restRoutes(router).get("/v1/things", { summary, access, query }, handler)`. */
export function restRoutes(router: Pick<Router, "route">): RestRoutes {
  const declare =
    (method: RouteMethod): Declare =>
    (path, declaration, ...handlers) => {
      const route = router.route(path) as unknown as DeclaredRoute & Record<RouteMethod, (...h: RequestHandler[]) => void>;
      route[method](...(handlers as unknown as RequestHandler[]));
      route[declarationsKey] = { ...route[declarationsKey], [method]: declaration };
    };
  return { get: declare("get"), post: declare("post"), put: declare("put"), patch: declare("patch"), delete: declare("delete") };
}

interface LayerLike {
  route?: { path: string | string[]; methods: Record<string, boolean> } & DeclaredRoute;
  handle?: { stack?: LayerLike[] };
  rawPath?: unknown;
  slash?: boolean;
}

/** Something with a route table: an express app (its router) or a router. */
export type RouteSource = { router?: { stack?: unknown[] }; stack?: unknown[] };

/**
 * Every method and path the sources answer, in their order (the first source to answer a method and path wins,
 * as express does), with each route's declaration. Routers mounted without a path are followed.
 */
export function routeTable(sources: readonly RouteSource[]): RouteEntry[] {
  const seen = new Set<string>();
  const out: RouteEntry[] = [];
  const walk = (stack: LayerLike[], prefix: string): void => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = ([] as string[]).concat(layer.route.path);
        for (const method of routeMethods) {
          if (!layer.route.methods[method]) continue;
          for (const path of paths) {
            const full = prefix + path;
            if (seen.has(`${method} ${full}`)) continue;
            seen.add(`${method} ${full}`);
            const declaration = layer.route[declarationsKey]?.[method];
            out.push({ method, path: full, ...(declaration ? { declaration } : {}) });
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
