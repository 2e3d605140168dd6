import sanitizeHtml from "sanitize-html";

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&#x27;": "'",
  "&nbsp;": " ",
};

/**
 * Plain text from user input that may contain HTML: tags and the content of script/style are
 * dropped, the text kept, entities decoded (we store text, and every renderer escapes it).
 */
export function stripHtml(input: string): string {
  // Without `<` there is no tag and without `&` no entity: the text is already plain (and the
  // parser's work, run for every text field of every donation, is skipped).
  if (!input.includes("<") && !input.includes("&")) return input;
  const text = sanitizeHtml(input, { allowedTags: [], allowedAttributes: {} });
  return text.replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (m) => ENTITIES[m] ?? m);
}
