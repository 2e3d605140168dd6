/** stripHtml (lib/html.ts): plain text from user input, the same with or without its fast path. */
import fc from "fast-check";
import sanitizeHtml from "sanitize-html";
import { describe, expect, it } from "vitest";
import { stripHtml } from "@/lib/html";

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&#x27;": "'",
  "&nbsp;": " ",
};
/** What stripHtml answers through the parser, for every input. */
const throughParser = (s: string) =>
  sanitizeHtml(s, { allowedTags: [], allowedAttributes: {} }).replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (m) => ENTITIES[m] ?? m);

describe("stripHtml", () => {
  it("drops tags and script content and decodes entities", () => {
    expect(stripHtml(`<b>Hi</b> <script>alert(1)</script>Tom &amp; Jerry &lt;3`)).toBe("Hi Tom & Jerry <3");
  });

  it("answers what the parser answers for any text, markup or not", () => {
    const text = fc.string({ unit: "binary", maxLength: 60 });
    const markup = fc.array(fc.oneof(text, fc.constantFrom("<", ">", "&", "&amp;", "<b>", "</b>", '"', "'", "&#39;", "&nbsp;")), {
      maxLength: 8,
    });
    fc.assert(
      fc.property(
        fc.oneof(
          text,
          markup.map((parts) => parts.join("")),
        ),
        (s) => stripHtml(s) === throughParser(s),
      ),
      {
        numRuns: 2000,
      },
    );
  });
});
