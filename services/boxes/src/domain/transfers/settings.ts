/** What the transfer URLs need from the service's configuration (config.ts), shared by every use case. */
export interface TransferSettings {
  /**
   * Where clients reach this service's REST API — in one process, the gateway's own address — with no trailing
   * slash. Transfer URLs start with it. Tests set it once their server listens.
   */
  publicUrl: string;
  /** The HMAC key this node checks its transfer URLs with (≥ 32 bytes). */
  signingKey: Buffer;
  /**
   * The key of `node`'s transfer URLs, for minting one for a box of another node (box-node.ts): BOXES_SIGNING_KEY
   * where the deployment sets one (every node shares it), else derived from the node's key (node/node-key.ts).
   */
  keyOf: (node: string) => Buffer;
  /** The clock URLs expire by (milliseconds); tests move it. */
  now: () => number;
  /** The largest upload (5 GB), and the largest folder an archive download packs (2 GB). */
  maxUploadBytes: number;
  maxArchiveBytes: number;
}

const GiB = 1024 ** 3;
/** "5 GB" and "2 GB" of the product, taken as GiB like its "1 MB" is taken as MiB. */
export const transferLimits = { uploadBytes: 5 * GiB, archiveBytes: 2 * GiB, urlLifetimeSeconds: 3600 } as const;
