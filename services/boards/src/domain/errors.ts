/**
 * The errors of docs/boards.md#errors. Two keep stable text prefixes an agent can branch on (VERSION_CONFLICT:,
 * IDEMPOTENCY_CONFLICT:), and an unreachable board always reads exactly the same, whether it does not
 * exist, lies outside the key's allowedBoardIds or the person is no member.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";

const boardNotFoundMessage = "Board not found or not accessible";

export function boardNotFound(): DomainError {
  return new DomainError(ErrorCode.notFound, boardNotFoundMessage);
}

export function taskNotFound(taskId: string): DomainError {
  return new DomainError(ErrorCode.notFound, `Task not found in this board: ${taskId}`, { taskId });
}

export function versionConflict(current: unknown, expectedVersion: number, actualVersion: number): DomainError {
  return new DomainError(
    ErrorCode.conflict,
    `VERSION_CONFLICT: the task is at version ${actualVersion}, not ${expectedVersion}; someone else changed it. Re-read it (list_tasks) before deciding again; do not retry blindly.`,
    { expectedVersion, currentVersion: actualVersion, current },
  );
}

export function idempotencyConflict(requestId: string, what = "arguments"): DomainError {
  return new DomainError(
    ErrorCode.idempotencyConflict,
    `IDEMPOTENCY_CONFLICT: requestId ${requestId} was already used with other ${what}. Generate a new requestId for each operation.`,
    { requestId },
  );
}

export function roleTooLow(role: string, needed: string): DomainError {
  return new DomainError(ErrorCode.permissionDenied, `Your role on this board is ${role}; this needs ${needed}.`, {
    role,
    requiredRole: needed,
  });
}

export function boardArchived(): DomainError {
  return new DomainError(ErrorCode.failedPrecondition, "The board is archived: restore it in the app before changing it.");
}

export function taskArchived(taskId: string): DomainError {
  return new DomainError(ErrorCode.failedPrecondition, "The task is archived and cannot be changed: restore it in the app first.", {
    taskId,
  });
}

export function wrongStatus(taskId: string, status: string, allowed: string): DomainError {
  return new DomainError(ErrorCode.failedPrecondition, `The task is ${status}; this needs a task that is ${allowed}.`, { taskId, status });
}

export function invalidField(path: string, message: string): DomainError {
  return new DomainError(ErrorCode.invalidArgument, `Invalid arguments: ${path}: ${message}`, { issues: [{ path, message }] });
}
