/**
 * The settings of the local driver's disks (src/config.ts): the warm pool's sizes (BOXES_WARM_POOL) and the disk store
 * (BOXES_DISK_STORE, BOXES_DISK_STORE_GIB); a wrong value stops the start naming its variable.
 */
import { describe, expect, it } from "vitest";
import { boxesConfig } from "../src/config.js";

const config = (env: Record<string, string>) => boxesConfig({}, { BOXES_SECRETS_KEY: "", ...env });

describe("disk settings", () => {
  it("when nothing is set, then two 20 GiB disks wait in the pool and the store is made where it helps", () => {
    expect(config({})).toMatchObject({ warmPool: [{ dataGiB: 20, count: 2 }], diskStore: { mode: "auto" } });
  });

  it("when the pool is a count or size:count pairs, then it holds that many of each size; 0 holds none", () => {
    expect(config({ BOXES_WARM_POOL: "4" }).warmPool).toEqual([{ dataGiB: 20, count: 4 }]);
    expect(config({ BOXES_WARM_POOL: "20:4, 50:1" }).warmPool).toEqual([
      { dataGiB: 20, count: 4 },
      { dataGiB: 50, count: 1 },
    ]);
    expect(config({ BOXES_WARM_POOL: "0" }).warmPool).toEqual([{ dataGiB: 20, count: 0 }]);
  });

  it("when a value is wrong, then the start stops naming the variable", () => {
    for (const text of ["many", "10:1", "20:", "600:1"]) expect(() => config({ BOXES_WARM_POOL: text })).toThrow(/BOXES_WARM_POOL/);
    expect(() => config({ BOXES_DISK_STORE: "xfs" })).toThrow(/BOXES_DISK_STORE must be auto or off/);
    expect(() => config({ BOXES_DISK_STORE_GIB: "0" })).toThrow(/BOXES_DISK_STORE_GIB/);
    expect(config({ BOXES_DISK_STORE: "off", BOXES_DISK_STORE_GIB: "200" }).diskStore).toEqual({ mode: "off", sizeGiB: 200 });
  });
});
