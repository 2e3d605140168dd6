import { describe, expect, it } from "vitest";
import { isFrameable } from "@/lib/security/frameable-routes";
import { apiSecurityHeaders, pageContentSecurityPolicy, pageSecurityHeaders } from "@/lib/security/headers";

describe("page security headers", () => {
  const base = { nonce: "abc123==", dev: false };

  it("deny framing, allow no eval and carry the nonce on a plain-http install", () => {
    const h = pageSecurityHeaders("/o/demo/donate/winter-meals", { ...base, appUrl: "http://localhost:3000" });
    expect(h["X-Frame-Options"]).toBe("DENY");
    expect(h["X-Content-Type-Options"]).toBe("nosniff");
    expect(h["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(h["Strict-Transport-Security"]).toBeUndefined();
    const csp = h["Content-Security-Policy"];
    expect(csp).toContain("script-src 'self' 'nonce-abc123==' https://js.stripe.com");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("https://www.youtube-nocookie.com https://player.vimeo.com");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toContain("upgrade-insecure-requests");
  });

  it("add HSTS and upgrade-insecure-requests when the app's URL is https", () => {
    const h = pageSecurityHeaders("/", { ...base, appUrl: "https://give.example.org" });
    expect(h["Strict-Transport-Security"]).toBe("max-age=63072000; includeSubDomains");
    expect(h["Content-Security-Policy"]).toMatch(/; upgrade-insecure-requests$/);
    expect(apiSecurityHeaders("https://give.example.org")["Strict-Transport-Security"]).toBe("max-age=63072000; includeSubDomains");
    expect(apiSecurityHeaders("http://localhost:3000")["Strict-Transport-Security"]).toBeUndefined();
  });

  it("allow eval under `next dev` only", () => {
    expect(pageContentSecurityPolicy({ ...base, dev: true, frameable: false, https: false })).toMatch(/script-src [^;]*'unsafe-eval'/);
  });

  it("leave a frameable page framable by any site: no frame-ancestors, no X-Frame-Options", () => {
    const routes = ["/o/:orgSlug/donate/:slug/embed"];
    expect(isFrameable("/o/demo/donate/winter-meals/embed", routes)).toBe(true);
    expect(isFrameable("/o/demo/donate/winter-meals/embed/", routes)).toBe(true);
    expect(isFrameable("/o/demo/donate/winter-meals", routes)).toBe(false);
    expect(isFrameable("/o/demo/donate/winter-meals/embed/x", routes)).toBe(false);
    expect(isFrameable("/o/demo/extra/donate/winter-meals/embed", routes)).toBe(false);
    expect(pageContentSecurityPolicy({ ...base, frameable: true, https: false })).not.toContain("frame-ancestors");
    // The listed routes: the embeddable form and its thank-you page, nothing else.
    expect(isFrameable("/o/demo/donate/winter-meals/embed")).toBe(true);
    expect(isFrameable("/o/demo/donate/winter-meals/embed/thank-you")).toBe(true);
    expect(isFrameable("/o/demo/donate/winter-meals")).toBe(false);
    expect(isFrameable("/o/demo/donate/winter-meals/thank-you")).toBe(false);
  });
});
