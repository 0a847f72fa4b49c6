/**
 * The example requests and responses of the boards product contract (docs/boards.md summarises it), kept
 * exactly as published: seed-examples.test.ts runs each request and compares the response's shape.
 */
export const seedBoardId = "550e8400-e29b-41d4-a716-446655440000";
export const seedProposalBoardId = "11111111-1111-4111-8111-111111111111";
export const seedTaskId = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
export const seedTagId = "a1d0c6e8-3f4b-4c2d-9e8f-1a2b3c4d5e6f";

export const requests = {
  submit_board_proposal: {
    requestId: "77777777-7777-4777-8777-777777777777",
    boardId: "11111111-1111-4111-8111-111111111111",
    summary: "Revise as prioridades antes de aplicar mudanças.",
    suggestions: [],
  },
  list_board_proposals: { boardId: "11111111-1111-4111-8111-111111111111" },
  list_boards: {},
  list_tasks: { boardId: "550e8400-e29b-41d4-a716-446655440000", quadrant: "urgent-important", status: "active" },
  list_board_tags: { boardId: "550e8400-e29b-41d4-a716-446655440000" },
  get_task_activity: { boardId: "550e8400-e29b-41d4-a716-446655440000" },
  create_task: {
    requestId: "0b6a4c55-2f47-4f3a-9d2e-8a1b2c3d4e5f",
    boardId: "550e8400-e29b-41d4-a716-446655440000",
    title: "Revisar proposta do Q4",
    quadrant: "urgent-important",
    description: "Enviar comentários até sexta",
    dueDate: "2026-10-03",
    tagIds: ["a1d0c6e8-3f4b-4c2d-9e8f-1a2b3c4d5e6f"],
  },
  update_task: {
    requestId: "5f0c8e1a-7b2d-4c3e-9f4a-1b2c3d4e5f60",
    boardId: "550e8400-e29b-41d4-a716-446655440000",
    taskId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    expectedVersion: 4,
    title: "Revisar proposta do Q4 (urgente)",
    description: "Enviar comentários até quinta",
    dueDate: "2026-10-02",
  },
  move_task: {
    requestId: "a3b4c5d6-e7f8-4a9b-8c0d-1e2f3a4b5c6d",
    boardId: "550e8400-e29b-41d4-a716-446655440000",
    taskId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    expectedVersion: 5,
    quadrant: "not-urgent-important",
  },
  complete_task: {
    requestId: "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f",
    boardId: "550e8400-e29b-41d4-a716-446655440000",
    taskId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    expectedVersion: 6,
  },
  discard_task: {
    requestId: "e3f4a5b6-c7d8-4e9f-8a0b-1c2d3e4f5a6b",
    boardId: "550e8400-e29b-41d4-a716-446655440000",
    taskId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    expectedVersion: 6,
  },
  reopen_task: {
    requestId: "d2e3f4a5-b6c7-4d8e-9f0a-1b2c3d4e5f6a",
    boardId: "550e8400-e29b-41d4-a716-446655440000",
    taskId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    expectedVersion: 7,
    quadrant: "backlog",
  },
} as const;

export const listBoardsResponse = {
  boards: [
    {
      id: "550e8400-e29b-41d4-a716-446655440000",
      name: "Produto",
      description: null,
      archived_at: null,
      created_at: "2026-09-01T10:30:00Z",
      quadrants: [{ id: "urgent-important", title: "Agora", subtitle: "Urgente e importante", color: "teal", customized: true }],
    },
  ],
};

export const listTasksResponse = {
  tasks: [
    {
      id: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
      board_id: "550e8400-e29b-41d4-a716-446655440000",
      task_number: 12,
      title: "Revisar proposta",
      description: null,
      quadrant: "urgent-important",
      status: "active",
      assignee_id: null,
      due_date: "2026-10-03",
      tags: [{ id: "a1d0c6e8-3f4b-4c2d-9e8f-1a2b3c4d5e6f", name: "Cliente", color: "teal" }],
      version: 4,
      created_at: "2026-09-28T12:00:00Z",
      updated_at: "2026-09-29T08:15:00Z",
    },
  ],
  nextCursor: null,
};

/** "A resposta é { "tags": [{ "id", "name", "color" }] }" */
export const listTagsResponse = { tags: [{ id: "a1d0c6e8-3f4b-4c2d-9e8f-1a2b3c4d5e6f", name: "Cliente", color: "teal" }] };

export const activityResponse = {
  events: [
    {
      id: "9b2f1a4e-0c1d-4e5f-8a9b-1c2d3e4f5a6b",
      board_id: "550e8400-e29b-41d4-a716-446655440000",
      actor_id: "3f9a2c1e-1111-4222-8333-444455556666",
      event_type: "task_moved",
      entity_type: "task",
      entity_id: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
      metadata: { from_quadrant: "backlog", to_quadrant: "urgent-important" },
      created_at: "2026-09-29T08:15:00Z",
    },
  ],
  nextCursor: null,
  coverageStart: "2026-07-01T00:00:00Z",
};

/** "A resposta contém proposal, com id, board_id, summary, summary_closed, suggestions e closed_at." */
export const proposalKeys = ["id", "board_id", "summary", "summary_closed", "suggestions", "closed_at"];
