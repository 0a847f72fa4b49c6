/** The JSON a REST route answers with and takes, read from the types generated from GET /v1/openapi.json (api-types.ts). */
import type { paths } from "./api-types";

type Operation<Path extends keyof paths, Method extends keyof paths[Path]> = paths[Path][Method];

export type JsonAnswer<Path extends keyof paths, Method extends keyof paths[Path]> =
  Operation<Path, Method> extends { responses: { 200: { content: { "application/json": infer Body } } } }
    ? Body
    : { "this route declares no JSON answer (its response schema)": Path }; // not never: reading a field of it must fail

/** The JSON body a REST route takes (its declared body schema). */
export type JsonBody<Path extends keyof paths, Method extends keyof paths[Path]> =
  Operation<Path, Method> extends { requestBody?: { content: { "application/json": infer Body } } }
    ? Body
    : { "this route declares no JSON body": Path };
