/**
 * An account's SSH public keys: any of them opens a shell in any of the account's boxes (`ssh <boxId>@host`), as
 * exec would run a command there, so registering one needs the exec scope. Keys are matched by fingerprint within
 * the box's own account only: a key of account B never opens a box of account A.
 */
import { createHash, randomInt } from "node:crypto";
import { DomainError, ErrorCode, invalidArgument } from "@bancada/contracts";
import ssh2 from "ssh2";
import { Prisma } from "../../db/generated/client.js";
import type { SshKey } from "../../db/generated/client.js";
import type { BoxesContext } from "../context.js";
import type { RegisterSshKeyInput, SshKeyView } from "../schemas/ssh.js";

export async function registerSshKey(ctx: BoxesContext, input: RegisterSshKeyInput): Promise<SshKeyView> {
  const text = input.publicKey.trim();
  const parsed = ssh2.utils.parseKey(text);
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || key instanceof Error)
    throw invalidArgument([{ path: "publicKey", message: "is not an OpenSSH public key (e.g. the line in ~/.ssh/id_ed25519.pub)" }]);
  if (key.isPrivateKey())
    throw invalidArgument([
      { path: "publicKey", message: "is a PRIVATE key: send the public one (the .pub file), and keep this one secret" },
    ]);
  const blob = key.getPublicSSH();
  const fingerprint = sshFingerprint(blob);
  const comment = text.split(/\s+/).slice(2).join(" ");
  try {
    const row = await ctx.db.sshKey.create({
      data: {
        id: `sk_${Array.from({ length: 16 }, () => "abcdefghijklmnopqrstuvwxyz0123456789"[randomInt(0, 36)]).join("")}`,
        accountId: ctx.accountId,
        name: input.name ?? (comment || fingerprint),
        algorithm: key.type,
        publicKey: `${key.type} ${blob.toString("base64")}`,
        fingerprint,
        createdAt: new Date(),
        createdBy: ctx.personId,
      },
    });
    return sshKeyView(row);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      throw new DomainError(ErrorCode.conflict, `This key (${fingerprint}) is registered already.`, { fingerprint });
    throw error;
  }
}

export async function listSshKeys(ctx: BoxesContext): Promise<SshKeyView[]> {
  const rows = await ctx.db.sshKey.findMany({ where: { accountId: ctx.accountId }, orderBy: { createdAt: "asc" } });
  return rows.map(sshKeyView);
}

export async function deleteSshKey(ctx: BoxesContext, id: string): Promise<{ deleted: SshKeyView }> {
  const row = await ctx.db.sshKey.findFirst({ where: { id, accountId: ctx.accountId } });
  if (!row) throw new DomainError(ErrorCode.notFound, `No SSH key ${id} in this workspace.`, { id });
  await ctx.db.sshKey.delete({ where: { id: row.id } });
  return { deleted: sshKeyView(row) };
}

/** SHA256:<base64 without padding> of the key blob, as OpenSSH shows it. */
export function sshFingerprint(blob: Buffer): string {
  return `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
}

function sshKeyView(row: SshKey): SshKeyView {
  return {
    id: row.id,
    name: row.name,
    algorithm: row.algorithm,
    fingerprint: row.fingerprint,
    publicKey: row.publicKey,
    createdAt: row.createdAt.toISOString(),
  };
}
