/** The row an exec's owner lookup hands to its handler (domain/just-read-boxes.ts): once, fresh, per account. */
import { describe, expect, it } from "vitest";
import type { BoxRow } from "../src/db/client.js";
import { JustReadBoxes } from "../src/domain/just-read-boxes.js";

const row = (id: string) => ({ id }) as BoxRow;

describe("rows handed from the owner lookup to exec", () => {
  it("when a row was just read, then the same account's call takes it once; another account or another box gets nothing", () => {
    const rows = new JustReadBoxes();
    rows.put("acc_a", "bx_1", row("bx_1"));
    expect(rows.take("acc_b", "bx_1")).toBeUndefined();
    expect(rows.take("acc_a", "bx_2")).toBeUndefined();
    expect(rows.take("acc_a", "bx_1")?.id).toBe("bx_1");
    expect(rows.take("acc_a", "bx_1")).toBeUndefined();
  });

  it("when a row waited past 200 ms, then it is not handed out: the handler reads the box itself", async () => {
    const rows = new JustReadBoxes();
    rows.put("acc_a", "bx_1", row("bx_1"));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(rows.take("acc_a", "bx_1")).toBeUndefined();
  });

  it("when 1000 rows are left untaken, then the stale ones are dropped and a new one is still handed", async () => {
    const rows = new JustReadBoxes();
    for (let i = 0; i < 999; i++) rows.put("acc_a", `bx_${i}`, row(`bx_${i}`));
    await new Promise((resolve) => setTimeout(resolve, 250));
    rows.put("acc_a", "bx_last", row("bx_last"));
    rows.put("acc_a", "bx_next", row("bx_next"));
    expect(rows.take("acc_a", "bx_0")).toBeUndefined();
    expect(rows.take("acc_a", "bx_last")?.id).toBe("bx_last");
    expect(rows.take("acc_a", "bx_next")?.id).toBe("bx_next");
  });
});
