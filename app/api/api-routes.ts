import type { RouteManifestEntry } from "@/lib/api/openapi";
import * as documentRoute from "./openapi.json/route";
import { ROUTES } from "./route-manifest";

/**
 * Every route module of the API with the path Next.js serves it at: the generated manifest's, and
 * GET /api/openapi.json's, which the manifest leaves out because that route reads the manifest
 * (it describes the same list). The API reference (/docs), the SDK and the tests use this one.
 */
export const API_ROUTES: readonly RouteManifestEntry[] = [...ROUTES, { path: "/api/openapi.json", module: documentRoute }];
