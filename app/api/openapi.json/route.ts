import { buildOpenApiDocument } from "@/lib/api/openapi";
import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/openapi.json: the OpenAPI 3.1 document of this API, generated from the handlers' schemas (public)
  GET: withRoute({ auth: "public", limit: "none" }, async () =>
    json(buildOpenApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } }),
  ),
});
