/**
 * The limits of docs/boxes.md#limits, and the ones this service chose where the product contract is
 * silent (marked "ours"). "1 MB" is taken as 1 MiB (1,048,576 bytes).
 */
const MiB = 1024 * 1024;

export const limits = {
  nameMax: 40,
  vcpus: [2, 4, 8, 16, 32] as const,
  memMiB: [4096, 8192, 16384, 32768, 65536] as const,
  memPerVcpuMiB: 2048,
  dataGiBMin: 20,
  dataGiBMax: 500,
  autoSuspendMin: 300,
  autoSuspendMax: 1800,
  /** ours: 30 days; the contract only says ≥ 1 (or −1 on paid plans). */
  maxRunMinutesMax: 43_200,
  deleteAfterMin: 60,
  deleteAfterMax: 86_400,
  metadataPairs: 32,
  /** ours */
  metadataKeyMax: 64,
  metadataValueMax: 512,
  secretsMax: 32,
  secretNameMax: 64,
  createWaitMs: 120_000,
  pageMax: 100,
  pageDefault: 20,
  execTimeoutMax: 600,
  execTimeoutDefault: 60,
  jobWaitMax: 600,
  jobWaitDefault: 300,
  streamBytes: MiB,
  fileBytes: MiB,
  /** ours: stdin is bounded like a file. */
  stdinBytes: MiB,
  /** Characters of base64 that encode `fileBytes` bytes. */
  base64Chars: 4 * Math.ceil(MiB / 3),
  /** ours */
  cmdMax: 100_000,
  argvItems: 1_000,
  argMax: 32_768,
  envPairs: 100,
  envNameMax: 128,
  envValueMax: 32_768,
  pathMax: 4_096,
  jobNameMax: 100,
  tailMax: 10_000,
  /** ours: one job_logs answer carries at most this much of the log. */
  logChunkBytes: MiB,
  idempotencyKeyMax: 200,
  /** ours: the 7-day idempotency window every domain keeps (docs/README.md). */
  idempotencyRetentionMs: 7 * 24 * 3600 * 1000,
  setupTimeoutDefault: 300,
  /** fork_box makes 1 to 5 copies. */
  forkMax: 5,
  /** ours */
  snapshotNameMax: 100,
  snapshotWaitMs: 60_000,
  /** create_box and fork_box report progress this often while they wait. */
  progressEveryMs: 2_000,
} as const;
