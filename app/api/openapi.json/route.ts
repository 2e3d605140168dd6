import { z } from "zod";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/openapi.json: the OpenAPI 3.1 document of this API, generated from the route definitions (public)
  GET: withRoute(
    {
      auth: "public",
      limit: "none",
      doc: {
        operationId: "getOpenApiDocument",
        summary: "This OpenAPI 3.1 document",
        tag: "Meta",
        success: 200,
        response: z.record(z.string(), z.unknown()),
        responseDescription: "The OpenAPI document",
      },
    },
    async () => {
      // Loaded on first use: the manifest imports every route module, this one included.
      // eslint-disable-next-line import/no-cycle
      const { ROUTES } = await import("../route-manifest");
      return json(buildOpenApiDocument(ROUTES), { headers: { "Cache-Control": "public, max-age=300" } });
    },
  ),
});
