import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/options";

// next-auth's own endpoints (sign-in, callback, session, CSRF). Options are built per request so
// the secret read from the environment (or generated under .data/) is the one tokens use.
const handler = (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) => NextAuth(req as never, ctx as never, getAuthOptions());

export { handler as GET, handler as POST };
