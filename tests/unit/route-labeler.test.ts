import { describe, expect, it } from "vitest";
import { routeLabeler } from "@/server/metrics";
import { API_ROUTE_PATHS } from "@/server/routes.generated";

const label = routeLabeler(API_ROUTE_PATHS, new Set(["/favicon.ico", "/covers/winter-meals.svg"]));

/** A path the route serves: each parameter given a value (a catch-all two segments). */
const pathOf = (route: string) =>
  route
    .split("/")
    .map((s) => (s.startsWith("[[...") || s.startsWith("[...") ? "a/b" : s.startsWith("[") ? "x1" : s))
    .join("/");

describe("the metrics' route label", () => {
  it("is the route that serves the path, for every API route, with or without a trailing slash", () => {
    for (const { route } of API_ROUTE_PATHS) {
      // The route Next.js chooses: the first that matches, the most specific first.
      const chosen = API_ROUTE_PATHS.find((r) => r.pattern.test(pathOf(route)))!.route;
      expect(label(pathOf(route)), route).toBe(chosen);
      expect(label(`${pathOf(route)}/`), `${route}/`).toBe(chosen);
    }
  });

  it("keeps a fixed path beside a parameter route on its own route", () => {
    expect(label("/api/donations")).toBe("/api/donations");
    expect(label("/api/public/campaigns/abc")).toBe("/api/public/campaigns/[id]");
  });

  it("bounds everything else: unknown API paths, static files and pages", () => {
    // Unknown API paths are the catch-all route's (its JSON 404), or `/api/*` where none matches.
    expect(label("/api/no-such-route/123")).toBe("/api/[...path]");
    expect(label("/api")).toBe("/api/*");
    expect(label("/_next/static/chunks/app.js")).toBe("static");
    expect(label("/favicon.ico")).toBe("static");
    expect(label("/covers/winter-meals.svg")).toBe("static");
    expect(label("/o/demo/donate/winter-meals")).toBe("page");
    expect(label("/apis")).toBe("page");
  });
});
