import { beforeAll, describe, expect, it } from "vitest";
import { del, get, newCampaign, newOrg, patch, post, type TestUser } from "../helpers/api";

// Tests run with APP_URL=http://localhost:3000, so the dashboard's cookie is the plain-http one.
const APP_ORIGIN = "http://localhost:3000";
const cookieOf = (user: TestUser) => ({ cookie: `next-auth.session-token=${user.token}` });

let owner: TestUser;
let org: { id: string; slug: string };

beforeAll(async () => {
  ({ owner, org } = await newOrg());
});

async function stillExists(id: string): Promise<boolean> {
  return (await get(`/api/campaigns/${id}`, { token: owner.token })).status === 200;
}

describe("cookie-authenticated writes are same-origin only", () => {
  it("DELETE /api/campaigns/:id with the session cookie from another site is 403 Forbidden, and the campaign stays", async () => {
    const c = await newCampaign(org, owner.token);
    const res = await del(`/api/campaigns/${c.id}`, {
      headers: { ...cookieOf(owner), origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Forbidden", status: 403 });
    expect(await stillExists(c.id)).toBe(true);
  });

  it("DELETE /api/campaigns/:id with the session cookie from the app's own pages is 204", async () => {
    const c = await newCampaign(org, owner.token);
    const res = await del(`/api/campaigns/${c.id}`, {
      headers: { ...cookieOf(owner), origin: APP_ORIGIN, "sec-fetch-site": "same-origin" },
    });
    expect(res.status).toBe(204);
    expect(await stillExists(c.id)).toBe(false);
  });

  it("accepts Origin alone when it is the app's origin (browsers without Sec-Fetch-Site)", async () => {
    const c = await newCampaign(org, owner.token);
    expect((await del(`/api/campaigns/${c.id}`, { headers: { ...cookieOf(owner), origin: APP_ORIGIN } })).status).toBe(204);
  });

  it("accepts Sec-Fetch-Site: same-origin alone (the browser vouches for the origin)", async () => {
    const c = await newCampaign(org, owner.token);
    expect((await del(`/api/campaigns/${c.id}`, { headers: { ...cookieOf(owner), "sec-fetch-site": "same-origin" } })).status).toBe(204);
  });

  it.each([
    ["another Origin", { origin: "https://evil.example" }],
    ["Origin null", { origin: "null" }],
    ["a look-alike Origin", { origin: "http://localhost:3000.evil.example" }],
    ["Sec-Fetch-Site: cross-site without Origin", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site (a sibling subdomain)", { "sec-fetch-site": "same-site" }],
    ["Sec-Fetch-Site: cross-site with our own Origin", { "sec-fetch-site": "cross-site", origin: APP_ORIGIN }],
    ["neither Origin nor Sec-Fetch-Site", {}],
  ])("refuses a cookie-authenticated write with %s (403)", async (_, headers: Record<string, string>) => {
    const c = await newCampaign(org, owner.token);
    const res = await patch(`/api/campaigns/${c.id}`, { title: "Hijacked" }, { headers: { ...cookieOf(owner), ...headers } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Forbidden", status: 403 });
    const after = await get(`/api/campaigns/${c.id}`, { token: owner.token });
    expect(after.body.title).toBe("Spring appeal");
  });

  it("POST /api/orgs/:idOrSlug/campaigns with the cookie from another site is 403 and creates nothing", async () => {
    const before = await get(`/api/orgs/${org.id}/campaigns`, { token: owner.token });
    const res = await post(
      `/api/orgs/${org.id}/campaigns`,
      { title: "Planted" },
      { headers: { ...cookieOf(owner), origin: "https://evil.example" } },
    );
    expect(res.status).toBe(403);
    const after = await get(`/api/orgs/${org.id}/campaigns`, { token: owner.token });
    expect(after.body.data.length).toBe(before.body.data.length);
  });

  it("leaves reads alone: GET with the cookie from another site still answers", async () => {
    const res = await get(`/api/orgs/${org.id}`, {
      headers: { ...cookieOf(owner), origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(org.id);
  });

  it("leaves Bearer tokens alone: a write from any origin works", async () => {
    const c = await newCampaign(org, owner.token);
    const res = await del(`/api/campaigns/${c.id}`, {
      token: owner.token,
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(res.status).toBe(204);
  });

  it("a Bearer token wins over a cookie, and a bad one is 401 even beside a valid cookie", async () => {
    const c = await newCampaign(org, owner.token);
    const res = await patch(
      `/api/campaigns/${c.id}`,
      { title: "By bearer" },
      { token: "not-a-token", headers: { ...cookieOf(owner), origin: APP_ORIGIN } },
    );
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Unauthorized", status: 401 });
  });

  it("another Authorization scheme (Basic, from a password-protected proxy) leaves the cookie in charge", async () => {
    const c = await newCampaign(org, owner.token);
    const basic = { authorization: `Basic ${Buffer.from("staff:pw").toString("base64")}` };
    expect(
      (await del(`/api/campaigns/${c.id}`, { headers: { ...basic, ...cookieOf(owner), origin: "https://evil.example" } })).status,
    ).toBe(403);
    expect((await del(`/api/campaigns/${c.id}`, { headers: { ...basic, ...cookieOf(owner), origin: APP_ORIGIN } })).status).toBe(204);
  });

  it("leaves public writes alone: POST /api/donations from another site with a cookie is not refused", async () => {
    // An organization that can take donations: onboarded through the sandbox processor.
    const onboarding = await post(`/api/orgs/${org.id}/processor/onboarding`, undefined, { token: owner.token });
    const account = onboarding.body.processorAccountId;
    expect((await post(`/api/sandbox/accounts/${account}/complete`, undefined, { token: owner.token })).status).toBeLessThan(300);
    const c = await newCampaign(org, owner.token, { status: "ACTIVE" });
    const res = await post(
      "/api/donations",
      { campaignId: c.id, amount: 2500, email: "donor@example.org", firstName: "Dana", lastName: "Donor" },
      { headers: { ...cookieOf(owner), origin: "https://evil.example", "sec-fetch-site": "cross-site" } },
    );
    expect(res.status, res.text).toBe(201);
  });
});
