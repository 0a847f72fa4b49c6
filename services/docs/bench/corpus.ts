/**
 * A 10,000-page documentation site for the benchmark, generated deterministically: 20 products × 12 kinds
 * of page × 42 variants (language, tool, setting), 2 to 8 KB each, with sections, code and lists, and a
 * vocabulary of ~20,000 words drawn with a Zipf-like skew so that posting lists look like real text.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { products } from "../test/fixtures/products.js";
import { seededRandom } from "@bancada/testkit";

const kinds = [
  ["creating", (many: string) => `Creating ${many}`],
  ["deleting", (many: string) => `Deleting ${many}`],
  ["listing", (many: string) => `Listing ${many}`],
  ["updating", (many: string) => `Updating ${many}`],
  ["monitoring", (many: string) => `Monitoring ${many}`],
  ["securing", (many: string) => `Securing ${many}`],
  ["migrating", (many: string) => `Migrating ${many}`],
  ["troubleshooting", (many: string) => `Troubleshooting ${many}`],
  ["scaling", (many: string) => `Scaling ${many}`],
  ["backing-up", (many: string) => `Backing up ${many}`],
  ["labeling", (many: string) => `Labeling ${many}`],
  ["auditing", (many: string) => `Auditing ${many}`],
] as const;

const variants = [
  "in Go",
  "in Java",
  "in Python",
  "in Node.js",
  "in C#",
  "in Ruby",
  "in PHP",
  "in Rust",
  "with Terraform",
  "with Pulumi",
  "with the REST API",
  "with the console",
  "with the command line",
  "with Ansible",
  "in a shared VPC",
  "across regions",
  "for regional workloads",
  "for batch jobs",
  "for streaming pipelines",
  "for web applications",
  "for mobile backends",
  "with customer-managed keys",
  "with private endpoints",
  "behind a proxy",
  "from on-premises",
  "with workload identity",
  "in CI pipelines",
  "with GitHub Actions",
  "for development environments",
  "for production",
  "at scale",
  "on a budget",
  "with audit logging",
  "with organization policies",
  "in multiple projects",
  "for data residency",
  "with IPv6",
  "for machine learning",
  "for analytics",
  "with service accounts",
  "with labels and tags",
  "using the client libraries",
];

const common = (
  "the a to of and in is for you that it with on this be can are as your by or from an use if when not new each more after all one " +
  "must before only which their its other then set create request project data value name default time access service resource file " +
  "example run change page number see also following version using configure enable disable policy account key region zone network"
).split(" ");

function vocabulary(next: () => number, size: number): string[] {
  const syllables = [
    "ka",
    "lo",
    "ter",
    "mi",
    "sa",
    "qu",
    "ven",
    "dor",
    "pi",
    "ral",
    "tos",
    "ne",
    "gri",
    "bu",
    "fe",
    "lan",
    "cor",
    "zi",
    "mo",
    "pex",
  ];
  const words = new Set<string>();
  while (words.size < size) {
    const length = 2 + Math.floor(next() * 3);
    words.add(Array.from({ length }, () => syllables[Math.floor(next() * syllables.length)]).join(""));
  }
  return [...words];
}

export interface BenchPage {
  file: string;
  title: string;
  /** A sentence of the page, for answer_query questions. */
  fact: string;
}

export function benchPages(count: number, seed = 10_000): { pages: BenchPage[]; render: (index: number) => string } {
  const next = seededRandom(seed);
  const words = vocabulary(next, 20_000);
  const zipf = () => words[Math.floor(words.length * next() ** 3)]!;
  const sentence = (topic: string) => {
    const parts = Array.from({ length: 8 + Math.floor(next() * 10) }, () =>
      next() < 0.55 ? common[Math.floor(next() * common.length)]! : zipf(),
    );
    parts.splice(Math.floor(next() * parts.length), 0, topic);
    const text = parts.join(" ");
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  const pages: BenchPage[] = [];
  outer: for (const variant of variants) {
    for (const product of products) {
      for (const [slug, title] of kinds) {
        if (pages.length === count) break outer;
        pages.push({
          file: `${product.slug}/${slug}/${variant.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.md`,
          title: `${title(product.many)} ${variant}`,
          fact: product.facts[pages.length % 3]!,
        });
      }
    }
  }
  const render = (index: number) => {
    const page = pages[index]!;
    const product = products.find((p) => page.file.startsWith(`${p.slug}/`))!;
    const sections = 3 + Math.floor(next() * 6);
    const body = Array.from({ length: sections }, (_, s) => {
      const paragraphs = Array.from({ length: 1 + Math.floor(next() * 3) }, () =>
        Array.from({ length: 2 + Math.floor(next() * 4) }, () => sentence(product.one)).join(" "),
      );
      const code =
        next() < 0.4
          ? `\n\n\`\`\`sh\ncloudctl ${product.cli} ${["create", "list", "update", "delete"][s % 4]} my-${product.slug} --project=my-project\n\`\`\``
          : "";
      return `## ${sentence(product.many).slice(0, 40).replace(/\.$/, "")}\n\n${paragraphs.join("\n\n")}${code}`;
    });
    return `---\ntitle: "${page.title}"\n---\n\n${sentence(product.many)} ${page.fact}\n\n${body.join("\n\n")}\n`;
  };
  return { pages, render };
}

export async function writeBenchCorpus(folder: string, count: number): Promise<BenchPage[]> {
  const { pages, render } = benchPages(count);
  for (let index = 0; index < pages.length; index++) {
    const file = path.join(folder, pages[index]!.file);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, render(index));
  }
  return pages;
}
