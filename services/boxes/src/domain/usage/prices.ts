/**
 * The price table (config.ts reads it from the environment): reais per vCPU-second and per MiB-second while a box
 * runs, per GiB-month of disk while it exists (any state but deleted), per GiB-month of snapshot storage.
 * A GiB-month is a GiB kept for the whole calendar month being billed: a month of 31 days spreads the price
 * over 31 days, one of 28 over 28, so a box kept all month pays exactly the price whatever the month.
 */
import { formatFemtoreais, parseReais } from "./money.js";

/** Each price in femtoreais (10⁻¹⁵ R$) per unit. */
export interface PriceTable {
  vcpuSecond: bigint;
  mibSecond: bigint;
  diskGiBMonth: bigint;
  snapshotGiBMonth: bigint;
}

/** The prices as decimal reais text, as configured. */
export type PriceText = Record<keyof PriceTable, string>;

/** Ours, where the product names no figures: about R$ 0,09 a vCPU-hour, R$ 0,036 a GiB-hour of memory. */
const defaultPrices: PriceText = {
  vcpuSecond: "0.000025",
  mibSecond: "0.00000001",
  diskGiBMonth: "0.50",
  snapshotGiBMonth: "0.25",
};

const priceVariables: Record<keyof PriceTable, string> = {
  vcpuSecond: "BOXES_PRICE_VCPU_SECOND",
  mibSecond: "BOXES_PRICE_MIB_SECOND",
  diskGiBMonth: "BOXES_PRICE_DISK_GIB_MONTH",
  snapshotGiBMonth: "BOXES_PRICE_SNAPSHOT_GIB_MONTH",
};

/** Reads the table; a value that is not decimal reais stops the start with the variable's name. */
export function priceTable(given: Partial<PriceText>, env: NodeJS.ProcessEnv): PriceTable {
  const table = {} as PriceTable;
  for (const key of Object.keys(defaultPrices) as (keyof PriceTable)[]) {
    const variable = priceVariables[key];
    const text = given[key] ?? (env[variable] || defaultPrices[key]);
    const value = parseReais(text);
    if (value === null)
      throw new Error(`${variable} must be a price in reais such as 0.000025 (digits, a dot, up to 15 decimals; got '${text}')`);
    table[key] = value;
  }
  return table;
}

export function priceText(table: PriceTable): PriceText {
  return {
    vcpuSecond: formatFemtoreais(table.vcpuSecond),
    mibSecond: formatFemtoreais(table.mibSecond),
    diskGiBMonth: formatFemtoreais(table.diskGiBMonth),
    snapshotGiBMonth: formatFemtoreais(table.snapshotGiBMonth),
  };
}
