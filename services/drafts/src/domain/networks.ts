/**
 * What each social network accepts, as the submission worker checks it ("accounts eligible"). An
 * account id is '<network>:<handle>'; a network missing here cannot be published to.
 */
export interface NetworkRules {
  label: string;
  captionMax: number;
  assetsMax: number;
  /** Needs at least one image or video. */
  needsMedia: boolean;
  /** Takes exactly one asset, a video. */
  videoOnly: boolean;
}

const rules = (
  label: string,
  captionMax: number,
  assetsMax: number,
  needs: Partial<Pick<NetworkRules, "needsMedia" | "videoOnly">> = {},
): NetworkRules => ({
  label,
  captionMax,
  assetsMax,
  needsMedia: needs.needsMedia ?? needs.videoOnly ?? false,
  videoOnly: needs.videoOnly ?? false,
});

export const networks: Readonly<Record<string, NetworkRules>> = {
  instagram: rules("Instagram", 2_200, 10, { needsMedia: true }),
  facebook: rules("Facebook", 2_200, 20),
  threads: rules("Threads", 500, 10),
  x: rules("X", 280, 4),
  linkedin: rules("LinkedIn", 2_200, 9),
  tiktok: rules("TikTok", 2_200, 1, { videoOnly: true }),
  youtube: rules("YouTube", 2_200, 1, { videoOnly: true }),
};

export function networkOf(accountId: string): string {
  return accountId.slice(0, accountId.indexOf(":"));
}
