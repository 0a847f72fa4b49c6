/**
 * Deterministic, realistic-looking script titles and texts: English words drawn with a Zipf distribution
 * (a few words are everywhere, most are not), invented names that give the trigram indexes a large
 * vocabulary, scene headings and character cues, and a few planted words whose frequency is known.
 */

import { seededRandom } from "@bancada/testkit";

/** A seeded PRNG, so every run seeds the same data. */
export const rng = seededRandom;

/** Ordered roughly by frequency: the earlier a word, the more often it is drawn. */
const words = `the and to of a in is you that it for on with as this we be at have not are but from they his her
he she was what all there can will one so out up about just when now like if my your me them get back into
over time know here then only way look down see more could did no night two where door right room come go
light going think take hand want still something never away room hands camera eyes face turns people first
around off head last good stands looks made through while long life walks another before under world after
moment again table scene window voice behind open other city office water car house street beat morning
phone wall across these very day towards watching those found new inside young old family might small side
left every pause dark quiet question quick quietly quarter quality request equipment frequent sequence square
squeeze unique technique require inquiry queen quote liquid conquer antique banquet mosque bouquet tranquil
close stops begins moves looking holds takes sits stares reaches picks pulls smiles laughs nods shakes whispers
shouts runs falls waits watches listens breathes blinks glances leans steps drops opens closes pushes grabs
bed chair desk floor stairs hallway kitchen garden roof bridge river forest field road station train platform
hospital school church market harbour factory warehouse studio theatre stage screen sound music silence
rain snow wind fire smoke storm sun moon stars sky cloud shadow glass mirror paper letter photograph envelope
coffee bread wine bottle knife gun key lamp candle clock radio television computer keyboard notebook pencil
mother father brother sister daughter son husband wife friend stranger doctor nurse teacher officer driver
detective lawyer judge soldier captain pilot sailor farmer baker singer dancer writer painter actor director
producer editor operator engineer manager assistant reporter journalist photographer guard waiter student
beautiful strange bright heavy empty full broken cold warm soft hard loud slow fast tired angry afraid happy
sad nervous careful calm sudden certain simple clear final early late busy ready alone together already
almost always often sometimes slowly suddenly finally carefully gently barely nearly really simply clearly
remember forget believe understand explain decide promise agree refuse accept return leave arrive follow
carry bring send receive answer call tell ask say speak write read sing dance play work sleep dream wake
fight win lose break build fix cut burn hide seek find keep hold drive ride fly swim climb fall rise turn
minute hour week month year evening afternoon midnight dawn dusk weekend holiday birthday wedding funeral
story chapter episode season series pilot draft outline treatment script dialogue monologue montage
flashback insert closeup wide tracking dolly crane handheld establishing reverse angle cut dissolve fade
continuous later meanwhile exterior interior`
  .split(/\s+/)
  .filter(Boolean);

export const vocabulary: readonly string[] = [...new Set(words)];

/** Syllables without q, x, z, j or "gh", so planted words (quetzalcoatl, nightjar) and "xq" never occur by chance. */
const syllables =
  "ba be bi bo bu da de di do du fa fe fi fo ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo vu wa we wi ya yo mar tel vin dor sol kan ber lin mor tas ren val mir cas dal fen hol".split(
    " ",
  );

function inventName(random: () => number): string {
  const parts = 2 + Math.floor(random() * 3);
  let name = "";
  for (let i = 0; i < parts; i++) name += syllables[Math.floor(random() * syllables.length)];
  return name;
}

/** Title-only words: series names that appear in titles and never in texts. */
export const seriesNames = [
  "Nightjar",
  "Bluefin",
  "Copperline",
  "Stillwater",
  "Harrowgate",
  "Lanternfish",
  "Brightmoor",
  "Kestrel",
] as const;

export interface Corpus {
  names: string[];
  /** Cumulative Zipf weights over `vocabulary`. */
  cumulative: Float64Array;
}

export function corpus(random: () => number, nameCount = 20_000): Corpus {
  const names = Array.from({ length: nameCount }, () => inventName(random));
  const cumulative = new Float64Array(vocabulary.length);
  let sum = 0;
  for (let i = 0; i < vocabulary.length; i++) cumulative[i] = sum += 1 / (i + 2.5);
  for (let i = 0; i < vocabulary.length; i++) cumulative[i]! /= sum;
  return { names, cumulative };
}

function zipfWord(c: Corpus, random: () => number): string {
  const u = random();
  let lo = 0;
  let hi = c.cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c.cumulative[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo]!;
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function sentence(c: Corpus, random: () => number): string {
  const length = 5 + Math.floor(random() * 12);
  const out: string[] = [];
  for (let i = 0; i < length; i++)
    out.push(random() < 0.04 ? capitalize(c.names[Math.floor(random() * c.names.length)]!) : zipfWord(c, random));
  return `${capitalize(out.join(" "))}${random() < 0.15 ? "?" : "."}`;
}

/** A text of about `target` characters (scene headings, action, character cues and dialogue). */
export function scriptText(c: Corpus, random: () => number, target: number): string {
  const lines: string[] = [];
  let size = 0;
  while (size < target) {
    const roll = random();
    let line: string;
    if (roll < 0.08) {
      const place = random() < 0.5 ? zipfWord(c, random) : c.names[Math.floor(random() * c.names.length)]!;
      line = `${random() < 0.5 ? "INT." : "EXT."} ${place.toUpperCase()} - ${random() < 0.5 ? "DAY" : "NIGHT"}`;
    } else if (roll < 0.5) {
      line = `${c.names[Math.floor(random() * 200)]!.toUpperCase()}: ${sentence(c, random)}`;
    } else {
      line = `${sentence(c, random)} ${sentence(c, random)}`;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

/** A title of 2 to 7 words, sometimes with a series name and an episode number. */
export function scriptTitle(c: Corpus, random: () => number, series?: string): string {
  const length = 2 + Math.floor(random() * 6);
  const parts: string[] = [];
  for (let i = 0; i < length; i++)
    parts.push(random() < 0.2 ? capitalize(c.names[Math.floor(random() * c.names.length)]!) : zipfWord(c, random));
  const title = capitalize(parts.join(" "));
  return series ? `${series}: ${title} (Ep. ${1 + Math.floor(random() * 40)})` : title;
}

/** Log-uniform length between min and max characters ("a few hundred to a few thousand"). */
export function textLength(random: () => number, min = 300, max = 4_000): number {
  return Math.round(Math.exp(Math.log(min) + random() * (Math.log(max) - Math.log(min))));
}

/** Puts `word` at a random word boundary of `text`. */
export function plant(text: string, word: string, random: () => number): string {
  const spaces: number[] = [];
  for (let i = text.indexOf(" "); i >= 0 && spaces.length < 400; i = text.indexOf(" ", i + 1)) spaces.push(i);
  const at = spaces[Math.floor(random() * spaces.length)] ?? text.length;
  return `${text.slice(0, at)} ${word}${text.slice(at)}`;
}
