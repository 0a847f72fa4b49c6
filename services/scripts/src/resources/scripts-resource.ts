/**
 * The account's scripts as MCP resources, `bancada://scripts/{id}`: listed newest change first (trashed ones left
 * out, as list_scripts does), read as the script's text in Markdown under its title, the same script get_script
 * returns. The id completes from the account's scripts by id prefix or title.
 */
import { z } from "zod";
import { defineResource } from "@bancada/service-kit";
import type { Scripts } from "../domain/context.js";
import { getScript, scriptNotFound } from "../domain/get-script.js";
import { listScripts } from "../domain/list-scripts.js";
import { scriptsContext } from "../tools/context.js";

const scriptUriTemplate = "bancada://scripts/{id}";

/** A script's resource URI. */
export const scriptUri = (id: string): string => `bancada://scripts/${id}`;
const pageSize = 100;
const offsetCursor = z.coerce.number().int().min(0).max(100_000);
const uuid = z.guid();

export const scriptsResource = (scripts: Scripts) =>
  defineResource({
    name: "scripts",
    uriTemplate: scriptUriTemplate,
    title: "Scripts",
    description: "A script of this account: its text in Markdown under its title, as get_script reads it.",
    mimeType: "text/markdown",
    scope: "scripts:read",
    async list(ctx, cursor) {
      const offset = cursor === undefined ? 0 : offsetCursor.parse(cursor);
      const page = await listScripts(scriptsContext(scripts, ctx), { limit: pageSize, offset, trashed: false });
      return {
        resources: page.scripts.map((script) => ({
          uri: scriptUri(script.id),
          name: script.title,
          title: script.title,
          description: `${script.status}, revision ${script.revision}`,
          mimeType: "text/markdown",
        })),
        ...(page.hasMore && page.nextOffset !== null ? { nextCursor: String(page.nextOffset) } : {}),
      };
    },
    async read(ctx, uri, { id }) {
      if (!uuid.safeParse(id).success) throw scriptNotFound(id!);
      const script = await getScript(scriptsContext(scripts, ctx), id!);
      return [{ uri, mimeType: "text/markdown", text: `# ${script.title}\n\n${script.text}` }];
    },
    complete: {
      async id(ctx, value) {
        const page = await listScripts(scriptsContext(scripts, ctx), {
          limit: pageSize,
          offset: 0,
          trashed: false,
          ...(value ? { query: value } : {}),
        });
        const byId = value ? await listScripts(scriptsContext(scripts, ctx), { limit: pageSize, offset: 0, trashed: false }) : page;
        const ids = new Set([
          ...byId.scripts.filter((script) => script.id.startsWith(value)).map((script) => script.id),
          ...page.scripts.map((script) => script.id),
        ]);
        return { values: [...ids], hasMore: page.hasMore };
      },
    },
  });
