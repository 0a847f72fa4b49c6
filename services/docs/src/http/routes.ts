/**
 * The REST API (`/v1`): reads use the same use cases, schemas and access as the MCP tools; ingestion is
 * REST-only: `PUT /v1/documents` (batch upsert), `DELETE /v1/documents` (batch) and
 * `DELETE /v1/documents/{uri without scheme}` (one). A document's REST path is its name under /v1.
 */
import { Router, type Request } from "express";
import { DomainError, ErrorCode } from "@bancada/contracts";
import { authorizedPrincipal, restRoutes } from "@bancada/service-kit";
import type { DocsDb } from "../db/client.js";
import { answerQuery } from "../domain/answer-query.js";
import { deleteDocuments } from "../domain/delete-documents.js";
import { getDocuments } from "../domain/get-documents.js";
import {
  answerQueryInput,
  deleteDocumentsInput,
  getDocumentsInput,
  searchDocumentsInput,
  upsertDocumentsInput,
} from "../domain/schemas.js";
import { searchDocuments } from "../domain/search-documents.js";
import { upsertDocuments } from "../domain/upsert-documents.js";
import { answerQueryTool } from "../tools/answer-query.js";
import { getDocumentsTool } from "../tools/get-documents.js";
import { searchDocumentsTool } from "../tools/search-documents.js";
import { ingesting, requireIngestAccess } from "./ingest-access.js";

export function docsRoutes(db: DocsDb, ingestAccounts: readonly string[]): Router {
  const router = Router();
  const routes = restRoutes(router);
  const publisher = (req: Request) => requireIngestAccess(req, ingestAccounts);
  const tools = { search: searchDocumentsTool(db), answer: answerQueryTool(db), get: getDocumentsTool(db) };

  routes.get("/v1/search", { summary: "Search the documentation", access: tools.search, query: searchDocumentsInput }, async (req, res) => {
    authorizedPrincipal(req, tools.search);
    const query = { ...req.query, ...(typeof req.query.pageSize === "string" ? { pageSize: Number(req.query.pageSize) } : {}) };
    res.json(await searchDocuments(db, searchDocumentsInput.parse(query)));
  });

  routes.post(
    "/v1/answer",
    { summary: "Answer a question from the documentation, with citations", access: tools.answer, body: answerQueryInput },
    async (req, res) => {
      authorizedPrincipal(req, tools.answer);
      res.json(await answerQuery(db, answerQueryInput.parse(req.body ?? {})));
    },
  );

  routes.get(
    "/v1/documents",
    { summary: "Read documents by name (names=…, repeated)", access: tools.get, query: getDocumentsInput },
    async (req, res) => {
      authorizedPrincipal(req, tools.get);
      const names = req.query.names === undefined ? [] : ([] as unknown[]).concat(req.query.names);
      res.json({ documents: await getDocuments(db, getDocumentsInput.parse({ names }).names) });
    },
  );

  routes.get("/v1/documents/*path", { summary: "Read one document by its name under /v1", access: tools.get }, async (req, res) => {
    authorizedPrincipal(req, tools.get);
    const [document] = await getDocuments(db, getDocumentsInput.parse({ names: [nameOf(req)] }).names);
    res.json({ document });
  });

  routes.put(
    "/v1/documents",
    { summary: "Upsert documents (publishing accounts only: DOCS_INGEST_ACCOUNTS)", access: ingesting, body: upsertDocumentsInput },
    async (req, res) => {
      publisher(req);
      res.json(await upsertDocuments(db, upsertDocumentsInput.parse(req.body ?? {})));
    },
  );

  routes.delete(
    "/v1/documents",
    { summary: "Delete documents (publishing accounts only)", access: ingesting, body: deleteDocumentsInput },
    async (req, res) => {
      publisher(req);
      res.json({ results: await deleteDocuments(db, deleteDocumentsInput.parse(req.body ?? {}).names) });
    },
  );

  routes.delete(
    "/v1/documents/*path",
    { summary: "Delete one document (publishing accounts only)", access: ingesting },
    async (req, res) => {
      publisher(req);
      const name = deleteDocumentsInput.parse({ names: [nameOf(req)] }).names[0]!;
      const [outcome] = await deleteDocuments(db, [name]);
      if (outcome?.status !== "deleted")
        throw new DomainError(ErrorCode.notFound, `This document does not exist: ${name}.`, { missing: [name] });
      res.json(outcome);
    },
  );

  return router;
}

function nameOf(req: Request): string {
  const path = (req.params as { path?: string[] | string }).path;
  return `documents/${Array.isArray(path) ? path.join("/") : (path ?? "")}`;
}
