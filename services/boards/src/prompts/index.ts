import type { PromptDefinition } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { triagePrompt } from "./triage.js";
import { weeklyReviewPrompt } from "./weekly-review.js";

/** `consoleUrl` (BANCADA_PUBLIC_URL) lets the prompts say where people create boards; absent, they name no address. */
export function boardsPrompts(db: BoardsDb, consoleUrl?: string): PromptDefinition[] {
  return [triagePrompt(db, consoleUrl), weeklyReviewPrompt(db, consoleUrl)];
}
