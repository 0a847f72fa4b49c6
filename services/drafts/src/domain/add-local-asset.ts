import { invalidArgument } from "@bancada/contracts";
import { openLocalFile } from "../assets/local-file.js";
import { addAsset } from "./add-asset.js";
import type { DraftsContext } from "./context.js";
import { addAssetFields, type AddAssetInput, type AssetView, type DraftView } from "./schemas.js";

/** The stdio tool's flavour of addAsset: the bytes come from a local file named by an absolute path. */
export async function addLocalAsset(ctx: DraftsContext, input: AddAssetInput): Promise<{ draft: DraftView; asset: AssetView }> {
  const file = await openLocalFile(input.path, ctx.blobs.maxBytes);
  const filename = input.filename ?? file.name;
  if (!addAssetFields.filename.safeParse(filename).success) {
    throw invalidArgument([{ path: "filename", message: "the file's own name cannot be shown as is; give a plain filename" }]);
  }
  return addAsset(ctx, { ...input, filename, open: file.open, field: "path" });
}
