/** Who is calling: resolved by the gateway from an API key and carried with every call. */
import { z } from "zod";

export const Profile = { core: "core", full: "full" } as const;
export type Profile = (typeof Profile)[keyof typeof Profile];

export const principalSchema = z.object({
  keyId: z.string(),
  accountId: z.string(),
  personId: z.string(),
  agentId: z.string(),
  scopes: z.array(z.string()),
  allowWrites: z.boolean(),
  allowedBoardIds: z.array(z.string()).nullable(),
  profile: z.enum(["core", "full"]),
});
export type Principal = z.infer<typeof principalSchema>;

export const Transport = { http: "http", stdio: "stdio" } as const;
export type Transport = (typeof Transport)[keyof typeof Transport];
