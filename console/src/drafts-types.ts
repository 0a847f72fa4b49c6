/**
 * The drafts REST shapes the console reads, taken from the routes' declared answers (api-types.ts is generated from
 * GET /v1/openapi.json): a field the drafts service stops answering fails the console's typecheck.
 */
import type { JsonAnswer } from "./api-answers";

type OnWorkspace = "/v1/workspaces/{workspaceId}";

export type Workspace = JsonAnswer<OnWorkspace, "get">["workspace"];
export type WorkspaceRole = Workspace["role"];
export type WorkspaceMember = JsonAnswer<`${OnWorkspace}/members`, "get">["members"][number];
/** A draft as the workspace's list shows it (a caption preview and counts). */
export type DraftItem = JsonAnswer<`${OnWorkspace}/drafts`, "get">["drafts"][number];
export type Draft = JsonAnswer<`${OnWorkspace}/drafts/{draftId}`, "get">["draft"];
export type Asset = Draft["assets"][number];
