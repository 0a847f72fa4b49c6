/** The arithmetic under get_usage without a box: exact prices, the one rounding, São Paulo's months. */
import { describe, expect, it } from "vitest";
import { boxCosts } from "../src/domain/usage/cost.js";
import { formatFemtoreais, moneyOf, parseReais, roundToCentavos } from "../src/domain/usage/money.js";
import { billingPeriod, periodAt } from "../src/domain/usage/period.js";
import { priceTable } from "../src/domain/usage/prices.js";

describe("usage arithmetic", () => {
  it("when prices are decimal text, then they are read exactly and anything else is refused with the variable", () => {
    expect(parseReais("0.000025")).toBe(25_000_000_000n);
    expect(parseReais("12")).toBe(12n * 10n ** 15n);
    expect(parseReais("0.000000000000001")).toBe(1n);
    for (const bad of ["", "-1", "1e-5", "0,5", "1.", ".5", "0.0000000000000001", "abc"]) expect(parseReais(bad)).toBeNull();
    expect(formatFemtoreais(parseReais("3.10")!)).toBe("3.1");
    expect(() => priceTable({}, { BOXES_PRICE_VCPU_SECOND: "cheap" })).toThrow(/BOXES_PRICE_VCPU_SECOND/);
    expect(priceTable({ mibSecond: "0.5" }, { BOXES_PRICE_MIB_SECOND: "9" }).mibSecond).toBe(5n * 10n ** 14n);
  });

  it("when an exact cost is rounded, then half a centavo goes up and less stays down", () => {
    const centavo = 10n ** 16n;
    expect(roundToCentavos(centavo / 2n)).toBe(1);
    expect(roundToCentavos(centavo / 2n - 1n)).toBe(0);
    expect(roundToCentavos(123n * centavo + centavo / 2n)).toBe(124);
    expect(moneyOf(1_234_008)).toEqual({ reais: "12340.08", centavos: 1_234_008 });
    expect(moneyOf(5)).toEqual({ reais: "0.05", centavos: 5 });
  });

  it("when a month is asked for, then it runs between São Paulo's local midnights, daylight saving time included", () => {
    expect(billingPeriod("2026-03")).toMatchObject({ start: new Date("2026-03-01T03:00:00Z"), end: new Date("2026-04-01T03:00:00Z") });
    expect(billingPeriod("2026-12").end).toEqual(new Date("2027-01-01T03:00:00Z"));
    // In January 2019 São Paulo was on summer time (UTC−2); daylight saving time began on 4 November 2018.
    expect(billingPeriod("2019-01").start).toEqual(new Date("2019-01-01T02:00:00Z"));
    expect(billingPeriod("2018-11").start).toEqual(new Date("2018-11-01T03:00:00Z"));
    expect(periodAt(new Date("2026-04-01T02:59:59.999Z"))).toBe("2026-03");
    expect(periodAt(new Date("2026-04-01T03:00:00Z"))).toBe("2026-04");
  });

  it("when intervals cross the month's edges, then only their part inside counts; deleted time costs nothing", () => {
    const prices = priceTable({ vcpuSecond: "1", mibSecond: "0", diskGiBMonth: "31" }, {});
    const month = billingPeriod("2026-03");
    const day = 86_400_000;
    const costs = boxCosts(
      [
        // running from the day before the month to its second day: one day inside
        {
          boxId: "a",
          state: "running",
          startedAt: new Date(month.start.getTime() - day),
          endedAt: new Date(month.start.getTime() + day),
          vcpus: 1,
          memMiB: 0,
          dataGiB: 1,
        },
        { boxId: "b", state: "suspended", startedAt: month.start, endedAt: null, vcpus: 8, memMiB: 0, dataGiB: 2 },
      ],
      prices,
      { ...month, openUntil: new Date(month.start.getTime() + 10 * day) },
    );
    // a: 86,400 vCPU-seconds at R$ 1 + 1 GiB for 1 of 31 days at R$ 31 = R$ 86,401
    expect(roundToCentavos(costs.get("a")!)).toBe(8_640_100);
    // b: paused, so disk only: 2 GiB × 10/31 × R$ 31 = R$ 20
    expect(roundToCentavos(costs.get("b")!)).toBe(2_000);
  });

  it("when a snapshot is kept, then its bytes count per GiB-month from when it was ready until it is deleted, inside the window only", () => {
    const prices = priceTable({ vcpuSecond: "0", mibSecond: "0", diskGiBMonth: "0", snapshotGiBMonth: "31" }, {});
    const month = billingPeriod("2026-03");
    const day = 86_400_000;
    const costs = boxCosts([], prices, { ...month, openUntil: month.end }, [
      // ready before the month: the whole month of 1 GiB = R$ 31
      { boxId: "gone", since: new Date(month.start.getTime() - 5 * day), sizeBytes: 1n << 30n },
      // half a GiB for the last 2 days = R$ 1
      { boxId: "late", since: new Date(month.end.getTime() - 2 * day), sizeBytes: 1n << 29n },
      // deleted after 3 days of the month: 1 GiB × 3/31 = R$ 3; deleted before the month began: nothing
      {
        boxId: "deleted",
        since: new Date(month.start.getTime() - day),
        until: new Date(month.start.getTime() + 3 * day),
        sizeBytes: 1n << 30n,
      },
      {
        boxId: "long-gone",
        since: new Date(month.start.getTime() - 9 * day),
        until: new Date(month.start.getTime() - day),
        sizeBytes: 1n << 30n,
      },
    ]);
    expect(roundToCentavos(costs.get("gone")!)).toBe(3_100);
    expect(roundToCentavos(costs.get("late")!)).toBe(100);
    expect(roundToCentavos(costs.get("deleted")!)).toBe(300);
    expect(roundToCentavos(costs.get("long-gone")!)).toBe(0);
  });
});
