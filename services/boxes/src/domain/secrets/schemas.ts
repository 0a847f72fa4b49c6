/** Workspace secrets over REST: names as environment variable names, values never shown back. */
import { z } from "zod";
import { limits } from "../limits.js";
import { noNul } from "../schemas/common.js";

const secretName = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
    "secret names are environment variable names: letters, digits and _, up to 64, not starting with a digit",
  )
  .describe("The secret's name, which is also the environment variable the boxes get.");

export const setSecretInput = z.strictObject({
  name: secretName,
  value: noNul(z.string().min(1).max(limits.envValueMax)).describe("The value (up to 32,768 characters); it is never shown again."),
});
export type SetSecretInput = z.infer<typeof setSecretInput>;

export const secretNameInput = z.strictObject({ name: secretName });

const secretView = z.object({ name: z.string(), createdAt: z.string(), updatedAt: z.string(), updatedBy: z.string() });
export type SecretView = z.infer<typeof secretView>;
export const secretAnswers = {
  secret: z.object({ secret: secretView }),
  secrets: z.object({ secrets: z.array(secretView) }),
  deleted: z.object({ name: z.string(), deleted: z.literal(true) }),
};
