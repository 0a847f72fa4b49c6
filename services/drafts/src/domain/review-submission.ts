/**
 * The worker's verdict on a draft being submitted: every reason it cannot go out, or none. Pure: the
 * caller gathers the draft, its assets and whether each asset's bytes are in the store.
 */
import { isVideo } from "../assets/media-type.js";
import { codePoints } from "./json-formats.js";
import { networkOf, networks } from "./networks.js";

export interface SubmissionCandidate {
  caption: string;
  accountIds: string[];
  assets: { filename: string; mime: string; bytes: number; storedBytes: number | null }[];
}

export function reviewSubmission(draft: SubmissionCandidate): string[] {
  const problems: string[] = [];
  const length = codePoints(draft.caption);
  if (draft.caption.trim() === "" && draft.assets.length === 0) problems.push("The draft has neither a caption nor assets.");
  if (draft.accountIds.length === 0) problems.push("The draft has no social account to go to.");
  for (const asset of draft.assets) {
    if (asset.storedBytes !== asset.bytes) problems.push(`Asset ${asset.filename} is missing from storage: remove it and add it again.`);
  }
  for (const accountId of draft.accountIds) {
    const network = networks[networkOf(accountId)];
    if (!network) {
      problems.push(`${accountId}: the network '${networkOf(accountId)}' is not supported (${Object.keys(networks).join(", ")}).`);
      continue;
    }
    if (length > network.captionMax)
      problems.push(`${accountId}: ${network.label} takes at most ${network.captionMax} characters; the caption has ${length}.`);
    if (draft.assets.length > network.assetsMax)
      problems.push(`${accountId}: ${network.label} takes at most ${network.assetsMax} assets; the draft has ${draft.assets.length}.`);
    if (network.needsMedia && draft.assets.length === 0) problems.push(`${accountId}: ${network.label} needs at least one image or video.`);
    if (network.videoOnly && !draft.assets.every((asset) => isVideo(asset.mime)))
      problems.push(`${accountId}: ${network.label} takes a video only.`);
  }
  return problems;
}
