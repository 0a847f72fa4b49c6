/** What the transfer URLs need from the service's configuration (config.ts), shared by every use case. */
export interface TransferSettings {
  /**
   * Where clients reach this service's REST API — in one process, the gateway's own address — with no trailing
   * slash. Transfer URLs start with it. Tests set it once their server listens.
   */
  publicUrl: string;
  /** The HMAC key transfer URLs are signed with (≥ 32 bytes); every replica of the service must share it. */
  signingKey: Buffer;
  /** The clock URLs expire by (milliseconds); tests move it. */
  now: () => number;
  /** The largest upload (5 GB), and the largest folder an archive download packs (2 GB). */
  maxUploadBytes: number;
  maxArchiveBytes: number;
}

const GiB = 1024 ** 3;
/** "5 GB" and "2 GB" of the product, taken as GiB like its "1 MB" is taken as MiB. */
export const transferLimits = { uploadBytes: 5 * GiB, archiveBytes: 2 * GiB, urlLifetimeSeconds: 3600 } as const;
