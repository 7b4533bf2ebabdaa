/**
 * bench/results/latest.md, one section per bench: a run replaces only the sections of the benches
 * it ran, and each section keeps the figures it replaced below the new ones ("previous", with their
 * date), so `npm run bench -- relay` no longer drops the typing or findings tables, and a figure
 * can always be read beside the one before it.
 */

/** What one bench measured in this run. */
export interface SectionReport {
  /** The bench's name as `npm run bench -- <name>` takes it. */
  name: string;
  /** When it ran (ISO time). */
  at: string;
  /** One line on where it ran (Node, CPUs, the load average as it started). */
  machine: string;
  /** Its tables, as markdown. */
  body: string;
}

const HEADER = [
  '# Latest benchmark figures',
  '',
  'One section per bench (`npm run bench -- <name>`). A run replaces only the sections of the benches it ran;',
  'each keeps the figures it replaced below the new ones, under "previous", with their date.',
  'The machine is shared: compare figures within one run (the ratios), and mind the load average printed with each.',
  '',
].join('\n');

const PREVIOUS = '\n### previous: ';

const open = (name: string) => `<!-- bench:${name} -->`;
const close = (name: string) => `<!-- /bench:${name} -->`;
const SECTION = /<!-- bench:([\w-]+) -->\n([\s\S]*?)\n<!-- \/bench:\1 -->/g;

/** The sections of an existing latest.md, in order, by name (their text between the markers). */
export function readSections(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const match of markdown.matchAll(SECTION)) sections.set(match[1] as string, match[2] as string);
  return sections;
}

/** A section's own figures, without what it kept of its predecessor. */
function current(section: string): string {
  const at = section.indexOf(PREVIOUS);
  return (at < 0 ? section : section.slice(0, at)).trim();
}

/** `## relay, 2026-12-06T03:10:00Z` -> the date the figures were taken. */
function dateOf(section: string): string {
  return /^## [\w-]+, (\S+)/.exec(section)?.[1] ?? 'unknown date';
}

/** The new figures of a bench, and below them the figures they replace (only those, not older ones). */
function renderSection(report: SectionReport, before: string | undefined): string {
  const now = [`## ${report.name}, ${report.at}`, '', `\`npm run bench -- ${report.name}\`; ${report.machine}.`, '', report.body.trim()].join('\n');
  if (before === undefined) return now;
  // The previous figures' own headings move one level down, under "previous".
  const previous = current(before).split('\n').slice(1).join('\n').trim().replace(/^### /gm, '#### ');
  return `${now}\n${PREVIOUS}${dateOf(before)}\n\n${previous}`;
}

/**
 * latest.md after a run: every section this run measured replaced (its predecessor kept as
 * "previous"), every other section exactly as it was, new sections after the existing ones.
 */
export function mergeLatest(existing: string | undefined, reports: readonly SectionReport[]): string {
  const sections = readSections(existing ?? '');
  for (const report of reports) sections.set(report.name, renderSection(report, sections.get(report.name)));
  const body = [...sections].map(([name, text]) => `${open(name)}\n${text}\n${close(name)}`).join('\n\n');
  return `${HEADER}\n${body}\n`;
}
