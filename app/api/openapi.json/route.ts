import { z } from "zod";
import { buildOpenApiDocument, type RouteManifestEntry } from "@/lib/api/openapi";
import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { ROUTES } from "../route-manifest";

const handlers = methods({
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
    async () => json(buildOpenApiDocument(DOCUMENTED), { headers: { "Cache-Control": "public, max-age=300" } }),
  ),
});

export const { GET, POST, PUT, PATCH, DELETE } = handlers;

/** The manifest's routes and this one, which the manifest leaves out because it imports the manifest. */
const DOCUMENTED: readonly RouteManifestEntry[] = [...ROUTES, { path: "/api/openapi.json", module: handlers }];
