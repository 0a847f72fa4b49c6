/**
 * REST: tags and tasks (everything the tools do, plus assignee, due-date removal, archive and restore). A route
 * that runs a tool's use case takes that tool's access; tag writes, reading one task, archive and restore have no tool.
 */
import { Router, type Request } from "express";
import type { BoardsDb } from "../db/client.js";
import { createTask } from "../domain/create-task.js";
import {
  boardRef,
  createTagInput,
  moveTaskInput,
  reopenTaskInput,
  restCreateTaskInput,
  restListTasksInput,
  restUpdateTaskInput,
  tagVersionRef,
  taskTransitionInput,
  updateTagInput,
} from "../domain/inputs.js";
import { listBoardTags } from "../domain/list-tags.js";
import { listTasks } from "../domain/list-tasks.js";
import { moveTask } from "../domain/move-task.js";
import { getTask } from "../domain/read-one.js";
import { createTag, deleteTag, updateTag } from "../domain/tags.js";
import { archiveTask, completeTask, discardTask, reopenTask, restoreTask } from "../domain/task-status.js";
import { updateTask } from "../domain/update-task.js";
import { completeTaskTool } from "../tools/complete-task.js";
import { createTaskTool } from "../tools/create-task.js";
import { discardTaskTool } from "../tools/discard-task.js";
import { listBoardTagsTool } from "../tools/list-board-tags.js";
import { listTasksTool } from "../tools/list-tasks.js";
import { moveTaskTool } from "../tools/move-task.js";
import { reopenTaskTool } from "../tools/reopen-task.js";
import { updateTaskTool } from "../tools/update-task.js";
import { body, listQuery, restContext, routeReads, routeWrites, versionedBody } from "./context.js";

export function taskRoutes(db: BoardsDb): Router {
  const router = Router();
  const read = (req: Request) => restContext(db, req, routeReads);
  const write = (req: Request) => restContext(db, req, routeWrites);
  const tools = {
    listTags: listBoardTagsTool(db),
    list: listTasksTool(db),
    create: createTaskTool(db),
    update: updateTaskTool(db),
    move: moveTaskTool(db),
    reopen: reopenTaskTool(db),
    complete: completeTaskTool(db),
    discard: discardTaskTool(db),
  };
  const onTask = (req: Request) => ({ ...body(req), boardId: req.params.boardId, taskId: req.params.taskId });

  router.get("/v1/boards/:boardId/tags", async (req, res) => {
    const ctx = restContext(db, req, tools.listTags);
    res.json(await listBoardTags(ctx, boardRef.parse({ boardId: req.params.boardId }).boardId));
  });
  router.post("/v1/boards/:boardId/tags", async (req, res) => {
    const ctx = write(req);
    res.status(201).json(await createTag(ctx, createTagInput.parse({ ...body(req), boardId: req.params.boardId })));
  });
  router.patch("/v1/boards/:boardId/tags/:tagId", async (req, res) => {
    const ctx = write(req);
    res.json(await updateTag(ctx, updateTagInput.parse({ ...versionedBody(req), boardId: req.params.boardId, tagId: req.params.tagId })));
  });
  router.delete("/v1/boards/:boardId/tags/:tagId", async (req, res) => {
    const ctx = write(req);
    await deleteTag(ctx, tagVersionRef.parse({ ...versionedBody(req), boardId: req.params.boardId, tagId: req.params.tagId }));
    res.status(204).end();
  });

  router.get("/v1/boards/:boardId/tasks", async (req, res) => {
    const ctx = restContext(db, req, tools.list);
    res.json(await listTasks(ctx, restListTasksInput.parse({ ...listQuery(req.query), boardId: req.params.boardId })));
  });
  router.post("/v1/boards/:boardId/tasks", async (req, res) => {
    const ctx = restContext(db, req, tools.create);
    res.status(201).json(await createTask(ctx, restCreateTaskInput.parse({ ...body(req), boardId: req.params.boardId })));
  });
  router.get("/v1/boards/:boardId/tasks/:taskId", async (req, res) => {
    const ctx = read(req);
    const { boardId, taskId } = taskTransitionInput.pick({ boardId: true, taskId: true }).parse(req.params);
    res.json(await getTask(ctx, boardId, taskId));
  });
  router.patch("/v1/boards/:boardId/tasks/:taskId", async (req, res) => {
    const ctx = restContext(db, req, tools.update);
    res.json(await updateTask(ctx, restUpdateTaskInput.parse(onTask(req))));
  });
  router.post("/v1/boards/:boardId/tasks/:taskId/move", async (req, res) => {
    const ctx = restContext(db, req, tools.move);
    res.json(await moveTask(ctx, moveTaskInput.parse(onTask(req))));
  });
  router.post("/v1/boards/:boardId/tasks/:taskId/reopen", async (req, res) => {
    const ctx = restContext(db, req, tools.reopen);
    res.json(await reopenTask(ctx, reopenTaskInput.parse(onTask(req))));
  });
  const transitions = [
    ["complete", completeTask, tools.complete],
    ["discard", discardTask, tools.discard],
    ["archive", archiveTask, routeWrites],
    ["restore", restoreTask, routeWrites],
  ] as const;
  for (const [action, run, access] of transitions) {
    router.post(`/v1/boards/:boardId/tasks/:taskId/${action}`, async (req, res) => {
      const ctx = restContext(db, req, access);
      res.json(await run(ctx, taskTransitionInput.parse(onTask(req))));
    });
  }
  return router;
}
