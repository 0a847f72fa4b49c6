/**
 * REST: boards, quadrant titles and members. Board writes carry the version read (body expectedVersion or If-Match).
 * Listing is list_boards' use case and takes its access; no tool manages boards, so the rest declare their own.
 */
import { Router } from "express";
import type { BoardsDb } from "../db/client.js";
import {
  boardRef,
  boardVersionInput,
  createBoardInput,
  customizeQuadrantInput,
  memberRef,
  resetQuadrantInput,
  setMemberInput,
  updateBoardInput,
} from "../domain/inputs.js";
import { listBoards } from "../domain/list-boards.js";
import { archiveBoard, createBoard, customizeQuadrant, deleteBoard, getBoard, resetQuadrant, updateBoard } from "../domain/manage-board.js";
import { listMembers, removeMember, setMember } from "../domain/members.js";
import { listBoardsTool } from "../tools/list-boards.js";
import { body, restContext, routeReads, routeWrites, versionedBody } from "./context.js";

export function boardRoutes(db: BoardsDb): Router {
  const router = Router();
  const read = (req: Parameters<typeof restContext>[1]) => restContext(db, req, routeReads);
  const write = (req: Parameters<typeof restContext>[1]) => restContext(db, req, routeWrites);
  const list = listBoardsTool(db);

  router.get("/v1/boards", async (req, res) => {
    res.json(await listBoards(restContext(db, req, list)));
  });
  router.post("/v1/boards", async (req, res) => {
    const ctx = write(req);
    res.status(201).json(await createBoard(ctx, createBoardInput.parse(body(req))));
  });
  router.get("/v1/boards/:boardId", async (req, res) => {
    const ctx = read(req);
    res.json(await getBoard(ctx, boardRef.parse({ boardId: req.params.boardId }).boardId));
  });
  router.patch("/v1/boards/:boardId", async (req, res) => {
    const ctx = write(req);
    res.json(await updateBoard(ctx, updateBoardInput.parse({ ...versionedBody(req), boardId: req.params.boardId })));
  });
  for (const [action, archive] of [
    ["archive", true],
    ["restore", false],
  ] as const) {
    router.post(`/v1/boards/:boardId/${action}`, async (req, res) => {
      const ctx = write(req);
      res.json(await archiveBoard(ctx, boardVersionInput.parse({ ...versionedBody(req), boardId: req.params.boardId }), archive));
    });
  }
  router.delete("/v1/boards/:boardId", async (req, res) => {
    const ctx = write(req);
    await deleteBoard(ctx, boardVersionInput.parse({ ...versionedBody(req), boardId: req.params.boardId }));
    res.status(204).end();
  });

  router.put("/v1/boards/:boardId/quadrants/:quadrant", async (req, res) => {
    const ctx = write(req);
    res.json(
      await customizeQuadrant(
        ctx,
        customizeQuadrantInput.parse({ ...versionedBody(req), boardId: req.params.boardId, quadrant: req.params.quadrant }),
      ),
    );
  });
  router.delete("/v1/boards/:boardId/quadrants/:quadrant", async (req, res) => {
    const ctx = write(req);
    res.json(
      await resetQuadrant(
        ctx,
        resetQuadrantInput.parse({ ...versionedBody(req), boardId: req.params.boardId, quadrant: req.params.quadrant }),
      ),
    );
  });

  router.get("/v1/boards/:boardId/members", async (req, res) => {
    const ctx = read(req);
    res.json(await listMembers(ctx, boardRef.parse({ boardId: req.params.boardId }).boardId));
  });
  router.put("/v1/boards/:boardId/members/:personId", async (req, res) => {
    const ctx = write(req);
    res.json(await setMember(ctx, setMemberInput.parse({ ...body(req), boardId: req.params.boardId, personId: req.params.personId })));
  });
  router.delete("/v1/boards/:boardId/members/:personId", async (req, res) => {
    const ctx = write(req);
    await removeMember(ctx, memberRef.parse({ boardId: req.params.boardId, personId: req.params.personId }));
    res.status(204).end();
  });
  return router;
}
