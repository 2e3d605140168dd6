import { EMBED_SCRIPT } from "@/lib/embed/embed-script";

// GET /embed.js: the script other sites add to show the donate form (public). Cached for five
// minutes, so a change reaches every site quickly; readable by any origin.
export function GET(): Response {
  return new Response(EMBED_SCRIPT, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=300",
      "Access-Control-Allow-Origin": "*",
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}
