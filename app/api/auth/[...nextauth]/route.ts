import NextAuth from "next-auth";
import { clientIpOf } from "@/lib/api/route";
import { getAuthOptions } from "@/lib/auth/options";

// next-auth's own endpoints (sign-in, callback, session, CSRF). Options are built per request so
// the secret read from the environment (or generated under .data/) is the one tokens use, and so
// a request for a sign-in email is counted against the client IP it came from.
const handler = (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) =>
  NextAuth(req as never, ctx as never, getAuthOptions({ clientIp: clientIpOf(req) }));

export { handler as GET, handler as POST };
