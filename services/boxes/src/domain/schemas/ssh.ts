/** The SSH keys an account registers over REST (`/v1/ssh-keys`) to open shells in its boxes. */
import { z } from "zod";
import { isoDate, noNul } from "./common.js";

export const registerSshKeyInput = z.strictObject({
  publicKey: noNul(z.string().min(1).max(16_384)).describe("An OpenSSH public key line, e.g. the content of ~/.ssh/id_ed25519.pub."),
  name: noNul(z.string().min(1).max(100)).optional().describe("A name for the key (default: the key's comment, else its fingerprint)."),
});
export type RegisterSshKeyInput = z.infer<typeof registerSshKeyInput>;

const sshKeyView = z.object({
  id: z.string().describe("Id of the key (sk_…)."),
  name: z.string(),
  algorithm: z.string(),
  fingerprint: z.string().describe("SHA256:… as ssh-keygen -l prints it."),
  publicKey: z.string(),
  createdAt: isoDate,
});
export type SshKeyView = z.infer<typeof sshKeyView>;
export const sshKeyAnswers = {
  key: z.object({ key: sshKeyView }),
  keys: z.object({ keys: z.array(sshKeyView) }),
  deleted: z.object({ deleted: sshKeyView }),
};
