import type { NextRequest } from "next/server";
import { notFound } from "@/lib/api/errors";
import { errorResponse } from "@/lib/api/respond";
import { defineRoute, requestIdOf } from "@/lib/api/route";

// Any /api path no route matches: a JSON 404 in the API's error shape instead of Next's HTML page
// (outside the API reference: it has no `doc`).
const handler = defineRoute({ access: "public", limit: "none" }, async (req: NextRequest): Promise<Response> => {
  const res = errorResponse(notFound());
  res.headers.set("X-Request-Id", requestIdOf(req));
  return res;
});

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
