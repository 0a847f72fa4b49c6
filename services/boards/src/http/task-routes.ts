/**
 * REST: tags and tasks (everything the tools do, plus assignee, due-date removal, archive and restore). A route
 * that runs a tool's use case takes that tool's access; tag writes, reading one task, archive and restore have no tool.
 */
import { Router, type Request } from "express";
import type { Access } from "@bancada/contracts";
import { restRoutes } from "@bancada/service-kit";
import type { z } from "zod";
import type { BoardsDb } from "../db/client.js";
import type { BoardsContext } from "../domain/context.js";
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
import { restAnswers } from "../domain/views.js";
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
  const routes = restRoutes(router);
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
  const ifMatch = { "If-Match": 'the version you read, as "<version>" (or expectedVersion in the body)' };
  const onTask = (req: Request) => ({ ...body(req), boardId: req.params.boardId, taskId: req.params.taskId });

  routes.get(
    "/v1/boards/:boardId/tags",
    { summary: "List a board's tags", access: tools.listTags, params: boardRef, response: restAnswers.tags },
    async (req, res) => {
      const ctx = restContext(db, req, tools.listTags);
      res.json(await listBoardTags(ctx, boardRef.parse({ boardId: req.params.boardId }).boardId));
    },
  );
  routes.post(
    "/v1/boards/:boardId/tags",
    { summary: "Create a tag", access: routeWrites, body: createTagInput, status: 201, response: restAnswers.tag },
    async (req, res) => {
      const ctx = write(req);
      res.status(201).json(await createTag(ctx, createTagInput.parse({ ...body(req), boardId: req.params.boardId })));
    },
  );
  routes.patch(
    "/v1/boards/:boardId/tags/:tagId",
    { summary: "Change a tag", access: routeWrites, body: updateTagInput, headers: ifMatch, response: restAnswers.tag },
    async (req, res) => {
      const ctx = write(req);
      res.json(await updateTag(ctx, updateTagInput.parse({ ...versionedBody(req), boardId: req.params.boardId, tagId: req.params.tagId })));
    },
  );
  routes.delete(
    "/v1/boards/:boardId/tags/:tagId",
    { summary: "Delete a tag", access: routeWrites, body: tagVersionRef, headers: ifMatch, status: 204 },
    async (req, res) => {
      const ctx = write(req);
      await deleteTag(ctx, tagVersionRef.parse({ ...versionedBody(req), boardId: req.params.boardId, tagId: req.params.tagId }));
      res.status(204).end();
    },
  );

  routes.get(
    "/v1/boards/:boardId/tasks",
    { summary: "List a board's tasks (tagIds=a,b)", access: tools.list, query: restListTasksInput, response: restAnswers.tasks },
    async (req, res) => {
      const ctx = restContext(db, req, tools.list);
      res.json(await listTasks(ctx, restListTasksInput.parse({ ...listQuery(req.query), boardId: req.params.boardId })));
    },
  );
  routes.post(
    "/v1/boards/:boardId/tasks",
    { summary: "Create a task", access: tools.create, body: restCreateTaskInput, status: 201, response: restAnswers.task },
    async (req, res) => {
      const ctx = restContext(db, req, tools.create);
      res.status(201).json(await createTask(ctx, restCreateTaskInput.parse({ ...body(req), boardId: req.params.boardId })));
    },
  );
  routes.get(
    "/v1/boards/:boardId/tasks/:taskId",
    { summary: "Read one task", access: routeReads, params: taskTransitionInput, response: restAnswers.task },
    async (req, res) => {
      const ctx = read(req);
      const { boardId, taskId } = taskTransitionInput.pick({ boardId: true, taskId: true }).parse(req.params);
      res.json(await getTask(ctx, boardId, taskId));
    },
  );
  routes.patch(
    "/v1/boards/:boardId/tasks/:taskId",
    {
      summary: "Change a task (assignee and due date may be removed with null)",
      access: tools.update,
      body: restUpdateTaskInput,
      response: restAnswers.task,
    },
    async (req, res) => {
      const ctx = restContext(db, req, tools.update);
      res.json(await updateTask(ctx, restUpdateTaskInput.parse(onTask(req))));
    },
  );
  // the POST actions on one task: the tool's use case and access, the task's address in the path
  const action = <Input>(
    name: string,
    summary: string,
    access: Access,
    input: z.ZodType<Input>,
    run: (ctx: BoardsContext, input: Input) => Promise<z.infer<typeof restAnswers.task>>,
  ) =>
    routes.post(
      `/v1/boards/:boardId/tasks/:taskId/${name}`,
      { summary, access, body: input, response: restAnswers.task },
      async (req, res) => {
        res.json(await run(restContext(db, req, access), input.parse(onTask(req))));
      },
    );
  action("move", "Move a task to another quadrant", tools.move, moveTaskInput, moveTask);
  action("reopen", "Reopen a done or discarded task", tools.reopen, reopenTaskInput, reopenTask);
  action("complete", "Complete a task", tools.complete, taskTransitionInput, completeTask);
  action("discard", "Discard a task", tools.discard, taskTransitionInput, discardTask);
  action("archive", "Archive a task", routeWrites, taskTransitionInput, archiveTask);
  action("restore", "Restore a task", routeWrites, taskTransitionInput, restoreTask);
  return router;
}
