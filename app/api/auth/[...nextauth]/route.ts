import NextAuth from "next-auth";
import { clientIpOf, defineRoute } from "@/lib/api/route";
import { getAuthOptions } from "@/lib/auth/options";

// next-auth's own endpoints (sign-in, callback, session, CSRF), outside the API reference. Options
// are built per request so the secret read from the environment (or generated under .data/) is
// the one tokens use, and so a request for a sign-in email is counted against the client IP it
// came from (next-auth's options limit those; nothing else here is rate-limited). The client IP
// and User-Agent also describe the session a sign-in starts (its device and network).
const handler = defineRoute(
  { access: "public", limit: "none" },
  (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }): Promise<Response> =>
    NextAuth(req as never, ctx as never, getAuthOptions({ clientIp: clientIpOf(req), userAgent: req.headers.get("user-agent") })),
);

export { handler as GET, handler as POST };
