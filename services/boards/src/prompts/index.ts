import type { PromptDefinition } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { triagePrompt } from "./triage.js";
import { weeklyReviewPrompt } from "./weekly-review.js";

export function boardsPrompts(db: BoardsDb): PromptDefinition[] {
  return [triagePrompt(db), weeklyReviewPrompt(db)];
}
