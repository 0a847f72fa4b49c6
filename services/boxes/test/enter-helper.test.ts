/**
 * The enter helper named by BOXES_ENTER_HELPER (built with the boxes image, where the machine has no compiler): used
 * as it is when root's and writable by nobody else, refused with the reason otherwise — never run when anyone but
 * this user could have changed it.
 */
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildEnterHelper } from "../src/driver/local/enter-helper.js";
import { boxesConfig } from "../src/config.js";

const folder = mkdtempSync(path.join(tmpdir(), "bancada-enter-helper-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("a prebuilt enter helper", () => {
  it("when BOXES_ENTER_HELPER is set, then the configuration carries it; unset, the driver builds its own", () => {
    expect(boxesConfig({}, { BOXES_ENTER_HELPER: "/usr/local/libexec/bancada-enter" }).enterHelper).toBe(
      "/usr/local/libexec/bancada-enter",
    );
    expect(boxesConfig({}, {}).enterHelper).toBeUndefined();
  });

  it("when it is this user's and writable by it only, then it is used as it is; group-writable or missing, it is refused with the reason", async () => {
    const built = await buildEnterHelper(path.join(folder, "cache"));
    if (!built.path) return; // no C compiler here: nothing to copy (the image's build stage has one)
    const prebuilt = path.join(folder, "bancada-enter");
    copyFileSync(built.path, prebuilt);
    chmodSync(prebuilt, 0o700);
    expect(await buildEnterHelper(path.join(folder, "unused"), prebuilt)).toEqual({ path: prebuilt, reason: null });
    chmodSync(prebuilt, 0o720);
    const writable = await buildEnterHelper(path.join(folder, "unused"), prebuilt);
    expect(writable.path).toBeNull();
    expect(writable.reason).toMatch(/BOXES_ENTER_HELPER cannot be used: .*writable by it only/);
    const missing = await buildEnterHelper(path.join(folder, "unused"), path.join(folder, "nothing"));
    expect(missing).toMatchObject({ path: null, reason: expect.stringContaining("ENOENT") });
  });
});
