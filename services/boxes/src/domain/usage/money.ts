/**
 * Money without floats. Prices are read from decimal text into integer femtoreais (10⁻¹⁵ R$); a cost is
 * integer attoreais (10⁻¹⁸ R$): a price per second in femtoreais times a duration in milliseconds is exactly
 * attoreais, so a running interval costs one BigInt multiplication and no rounding. Only a finished line is
 * rounded, once, to whole centavos (docs/boxes.md#usage-and-billing).
 */
import { z } from "zod";

/** 1 centavo = 10¹⁶ attoreais. */
const attoPerCentavo = 10n ** 16n;
/** 1 real = 10¹⁵ femtoreais. */
const femtoPerReal = 10n ** 15n;

/** Reais as decimal text ("0.000025", "12", "0.5") → integer femtoreais; null when it is not such a number. */
export function parseReais(text: string): bigint | null {
  const match = /^(\d{1,12})(?:\.(\d{1,15}))?$/.exec(text.trim());
  if (!match) return null;
  const fraction = (match[2] ?? "").padEnd(15, "0");
  return BigInt(match[1]!) * femtoPerReal + BigInt(fraction);
}

/** Femtoreais back to the shortest decimal text (for showing the price table). */
export function formatFemtoreais(value: bigint): string {
  const whole = value / femtoPerReal;
  const fraction = (value % femtoPerReal).toString().padStart(15, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/** Attoreais → whole centavos, half up (costs are never negative). */
export function roundToCentavos(atto: bigint): number {
  return Number((atto + attoPerCentavo / 2n) / attoPerCentavo);
}

/** An amount as it is shown: `reais` as exact decimal text ("12.34"), `centavos` as an integer (1234). */
export const money = z.object({
  reais: z.string().describe('Reais as exact decimal text, e.g. "12.34".'),
  centavos: z.number().int().describe("The same amount in centavos (an integer)."),
});
export type Money = z.infer<typeof money>;

export function moneyOf(centavos: number): Money {
  return { reais: `${Math.floor(centavos / 100)}.${String(centavos % 100).padStart(2, "0")}`, centavos };
}
