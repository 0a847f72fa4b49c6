/**
 * Every call that reaches one board, through the MCP tools and through every REST route of the app, for
 * the access tests (outsiders, allowlists, other accounts). The REST list is checked against the routes
 * the router registers, so a new route cannot slip past those tests.
 */
import { randomUUID } from "node:crypto";
import type { Router } from "express";

/** The ids one board's calls name: a task, a tag, a proposal with a suggestion, and members to add and remove. */
export interface BoardIds {
  boardId: string;
  taskId: string;
  tagId: string;
  proposalId: string;
  suggestionId: string;
  /** A person the call adds as a member. */
  newMember: string;
  /** A member the call removes. */
  member: string;
}

export function toolCalls(ids: BoardIds): [string, Record<string, unknown>][] {
  const { boardId } = ids;
  const onTask = { requestId: randomUUID(), boardId, taskId: ids.taskId, expectedVersion: 1 };
  return [
    ["list_tasks", { boardId }],
    ["list_board_tags", { boardId }],
    ["get_task_activity", { boardId }],
    ["list_board_proposals", { boardId }],
    ["create_task", { requestId: randomUUID(), boardId, title: "x" }],
    ["update_task", { ...onTask, title: "x" }],
    ["move_task", { ...onTask, quadrant: "backlog" }],
    ["complete_task", onTask],
    ["discard_task", onTask],
    ["reopen_task", onTask],
    ["submit_board_proposal", { requestId: randomUUID(), boardId, summary: "x" }],
  ];
}

export function restCalls(ids: BoardIds): [string, string, unknown?][] {
  const b = `/v1/boards/${ids.boardId}`;
  const t = `${b}/tasks/${ids.taskId}`;
  const p = `${b}/proposals/${ids.proposalId}`;
  const onTask = { requestId: randomUUID(), expectedVersion: 1 };
  return [
    ["GET", b],
    ["PATCH", b, { expectedVersion: 1, name: "x" }],
    ["POST", `${b}/archive`, { expectedVersion: 1 }],
    ["POST", `${b}/restore`, { expectedVersion: 1 }],
    ["DELETE", b, { expectedVersion: 1 }],
    ["PUT", `${b}/quadrants/urgent-important`, { expectedVersion: 1, title: "x", subtitle: "", color: "teal" }],
    ["DELETE", `${b}/quadrants/urgent-important`, { expectedVersion: 1 }],
    ["GET", `${b}/members`],
    ["PUT", `${b}/members/${ids.newMember}`, { role: "owner" }],
    ["DELETE", `${b}/members/${ids.member}`],
    ["GET", `${b}/tags`],
    ["POST", `${b}/tags`, { requestId: randomUUID(), name: "x", color: "teal" }],
    ["PATCH", `${b}/tags/${ids.tagId}`, { expectedVersion: 1, name: "y" }],
    ["DELETE", `${b}/tags/${ids.tagId}`, { expectedVersion: 1 }],
    ["GET", `${b}/tasks`],
    ["POST", `${b}/tasks`, { requestId: randomUUID(), title: "x" }],
    ["GET", t],
    ["PATCH", t, { ...onTask, title: "x" }],
    ["POST", `${t}/move`, { ...onTask, quadrant: "backlog" }],
    ["POST", `${t}/complete`, onTask],
    ["POST", `${t}/discard`, onTask],
    ["POST", `${t}/reopen`, onTask],
    ["POST", `${t}/archive`, onTask],
    ["POST", `${t}/restore`, onTask],
    ["GET", `${b}/activity`],
    ["GET", `${b}/proposals`],
    ["GET", p],
    ["POST", `${p}/suggestions/${ids.suggestionId}/apply`],
    ["POST", `${p}/suggestions/${ids.suggestionId}/reject`],
    ["POST", `${p}/close-summary`],
    ["POST", `${p}/dismiss`],
    ["POST", `${p}/apply-all`],
    ["POST", `${p}/reject-all`],
    ["POST", `${p}/suggestions/${ids.suggestionId}/repropose`, { requestId: randomUUID() }],
  ];
}

/** Every route the app's REST API registers, as "METHOD /path/:param". */
export function registeredRoutes(router: Router): string[] {
  return router.stack.flatMap((layer) =>
    layer.route
      ? [...new Set(layer.route.stack.map((handler) => `${handler.method.toUpperCase()} ${layer.route!.path}`))]
      : registeredRoutes(layer.handle as unknown as Router),
  );
}

/** The routes of one board that `restCalls` calls, as templates comparable with `registeredRoutes`. */
export function calledRouteTemplates(ids: BoardIds): string[] {
  const template = (path: string) =>
    path
      .replace(ids.boardId, ":boardId")
      .replace(ids.taskId, ":taskId")
      .replace(ids.tagId, ":tagId")
      .replace(ids.proposalId, ":proposalId")
      .replace(ids.suggestionId, ":suggestionId")
      .replace("/quadrants/urgent-important", "/quadrants/:quadrant")
      .replace(`/members/${ids.newMember}`, "/members/:personId")
      .replace(`/members/${ids.member}`, "/members/:personId");
  return [...new Set(restCalls(ids).map(([method, path]) => `${method} ${template(path)}`))].sort();
}
