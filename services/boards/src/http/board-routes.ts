/**
 * REST: boards, quadrant titles and members. Board writes carry the version read (body expectedVersion or If-Match).
 * Listing is list_boards' use case and takes its access; no tool manages boards, so the rest declare their own.
 */
import { Router } from "express";
import { restRoutes } from "@bancada/service-kit";
import type { z } from "zod";
import type { BoardsDb } from "../db/client.js";
import type { BoardsContext } from "../domain/context.js";
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
import { restAnswers } from "../domain/views.js";
import { listBoardsTool } from "../tools/list-boards.js";
import { body, restContext, routeReads, routeWrites, versionedBody } from "./context.js";

export function boardRoutes(db: BoardsDb): Router {
  const router = Router();
  const routes = restRoutes(router);
  const read = (req: Parameters<typeof restContext>[1]) => restContext(db, req, routeReads);
  const write = (req: Parameters<typeof restContext>[1]) => restContext(db, req, routeWrites);
  const list = listBoardsTool(db);
  const ifMatch = { "If-Match": 'the version you read, as "<version>" (or expectedVersion in the body)' };

  routes.get("/v1/boards", { summary: "List the boards the key reaches", access: list, response: restAnswers.boards }, async (req, res) => {
    res.json(await listBoards(restContext(db, req, list)));
  });
  routes.post(
    "/v1/boards",
    { summary: "Create a board", access: routeWrites, body: createBoardInput, status: 201, response: restAnswers.board },
    async (req, res) => {
      const ctx = write(req);
      res.status(201).json(await createBoard(ctx, createBoardInput.parse(body(req))));
    },
  );
  routes.get(
    "/v1/boards/:boardId",
    { summary: "Read one board", access: routeReads, params: boardRef, response: restAnswers.board },
    async (req, res) => {
      const ctx = read(req);
      res.json(await getBoard(ctx, boardRef.parse({ boardId: req.params.boardId }).boardId));
    },
  );
  routes.patch(
    "/v1/boards/:boardId",
    {
      summary: "Rename a board (version in expectedVersion or If-Match)",
      access: routeWrites,
      body: updateBoardInput,
      headers: ifMatch,
      response: restAnswers.board,
    },
    async (req, res) => {
      const ctx = write(req);
      res.json(await updateBoard(ctx, updateBoardInput.parse({ ...versionedBody(req), boardId: req.params.boardId })));
    },
  );
  for (const [action, archive] of [
    ["archive", true],
    ["restore", false],
  ] as const) {
    routes.post(
      `/v1/boards/:boardId/${action}`,
      {
        summary: `${archive ? "Archive" : "Restore"} a board`,
        access: routeWrites,
        body: boardVersionInput,
        headers: ifMatch,
        response: restAnswers.board,
      },
      async (req, res) => {
        const ctx = write(req);
        res.json(await archiveBoard(ctx, boardVersionInput.parse({ ...versionedBody(req), boardId: req.params.boardId }), archive));
      },
    );
  }
  routes.delete(
    "/v1/boards/:boardId",
    { summary: "Delete a board", access: routeWrites, body: boardVersionInput, headers: ifMatch, status: 204 },
    async (req, res) => {
      const ctx = write(req);
      await deleteBoard(ctx, boardVersionInput.parse({ ...versionedBody(req), boardId: req.params.boardId }));
      res.status(204).end();
    },
  );

  // a quadrant's title is customized with PUT and reset with DELETE: the same address, version check and answer
  const quadrantTitle = <Input>(
    method: "put" | "delete",
    summary: string,
    input: z.ZodType<Input>,
    change: (ctx: BoardsContext, input: Input) => Promise<z.infer<typeof restAnswers.board>>,
  ) =>
    routes[method](
      "/v1/boards/:boardId/quadrants/:quadrant",
      { summary, access: routeWrites, body: input, headers: ifMatch, response: restAnswers.board },
      async (req, res) => {
        res.json(
          await change(write(req), input.parse({ ...versionedBody(req), boardId: req.params.boardId, quadrant: req.params.quadrant })),
        );
      },
    );
  quadrantTitle("put", "Customize a quadrant's title", customizeQuadrantInput, customizeQuadrant);
  quadrantTitle("delete", "Reset a quadrant's title", resetQuadrantInput, resetQuadrant);

  routes.get(
    "/v1/boards/:boardId/members",
    { summary: "List a board's members", access: routeReads, params: boardRef, response: restAnswers.members },
    async (req, res) => {
      const ctx = read(req);
      res.json(await listMembers(ctx, boardRef.parse({ boardId: req.params.boardId }).boardId));
    },
  );
  routes.put(
    "/v1/boards/:boardId/members/:personId",
    { summary: "Add a member or change their role", access: routeWrites, body: setMemberInput, response: restAnswers.member },
    async (req, res) => {
      const ctx = write(req);
      res.json(await setMember(ctx, setMemberInput.parse({ ...body(req), boardId: req.params.boardId, personId: req.params.personId })));
    },
  );
  routes.delete(
    "/v1/boards/:boardId/members/:personId",
    { summary: "Remove a member", access: routeWrites, params: memberRef, status: 204 },
    async (req, res) => {
      const ctx = write(req);
      await removeMember(ctx, memberRef.parse({ boardId: req.params.boardId, personId: req.params.personId }));
      res.status(204).end();
    },
  );
  return router;
}
