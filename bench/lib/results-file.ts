import { existsSync, readFileSync, writeFileSync } from "node:fs";

/**
 * bench/RESULTS.md holds two benches' results: the API bench's (bench/lib/goals.ts, the file's
 * head) and the pages bench's (bench/pages.ts), each rewritten by its own bench only. The pages
 * bench's lives between two marker comments; either bench keeps the other's part as it found it.
 */
const START = "<!-- bench-pages:start -->";
const END = "<!-- bench-pages:end -->";

/** The pages bench's part of the file as it stands, markers included ("" when there is none). */
export function pagesSection(file: string): string {
  if (!existsSync(file)) return "";
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(START);
  const end = text.indexOf(END, at);
  return at >= 0 && end > at ? text.slice(at, end + END.length) : "";
}

/** The file without the pages bench's part: the API bench's. */
function apiPart(file: string): string {
  if (!existsSync(file)) return "";
  const text = readFileSync(file, "utf8");
  const section = pagesSection(file);
  return (section ? text.replace(section, "") : text).trimEnd();
}

/** Writes the API bench's part (the file's head), keeping the pages bench's after it. */
export function writeApiPart(file: string, text: string): void {
  const section = pagesSection(file);
  writeFileSync(file, section ? `${text.trimEnd()}\n\n${section}\n` : text);
}

/** Writes the pages bench's part (`body`, between the markers), keeping the API bench's before it. */
export function writePagesPart(file: string, body: string): void {
  const head = apiPart(file);
  const section = `${START}\n${body.trim()}\n${END}`;
  writeFileSync(file, head ? `${head}\n\n${section}\n` : `${section}\n`);
}
