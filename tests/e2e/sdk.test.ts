import http from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { createClient, paginate, verifyWebhook, WebhookVerificationError, type FetchLike, type GoodfundClient } from "@/sdk/typescript/src";
import { cliToken, type RunningServer } from "../helpers/server";
import { startEmbeddedServerForFile } from "../helpers/embedded-server";

// The TypeScript SDK against the production server (`npm start`, embedded database, sandbox
// mode) over real HTTP: idempotent retries, pagination and webhook signatures end to end.

// The webhook receiver of these tests listens on 127.0.0.1.
const app = startEmbeddedServerForFile("goodfund-sdk-", { ALLOW_PRIVATE_WEBHOOK_URLS: "1" });

let server: RunningServer;
/** The staff client (the organization's owner) and the organization's slug. */
let admin: GoodfundClient;
let slug: string;

beforeAll(async () => {
  server = app.server;
  const token = cliToken("sdk-owner@example.org", app.env);
  admin = createClient({ baseUrl: server.url, apiKey: token });
  const { data: org, error } = await admin.POST("/api/orgs", { body: { name: "SDK Fund" } });
  if (!org) throw new Error(`could not create the organization: ${JSON.stringify(error)}`);
  slug = org.slug;
  // Payouts set up (the sandbox's stand-in for Stripe's onboarding), so the organization takes donations.
  const { data: onboarding } = await admin.POST("/api/orgs/{idOrSlug}/processor/onboarding", { params: { path: { idOrSlug: slug } } });
  const done = await admin.POST("/api/sandbox/accounts/{id}/complete", { params: { path: { id: onboarding!.processorAccountId } } });
  if (!done.response.ok) throw new Error(`onboarding failed: ${JSON.stringify(done.error)}`);
});

async function activeCampaign(title: string): Promise<string> {
  const { data, error } = await admin.POST("/api/orgs/{idOrSlug}/campaigns", {
    params: { path: { idOrSlug: slug } },
    body: { title, status: "ACTIVE" },
  });
  if (!data) throw new Error(`could not create a campaign: ${JSON.stringify(error)}`);
  return data.id;
}

describe("TypeScript SDK against the production server", () => {
  it("POST /api/donations: a donation whose answer was lost is retried with the same Idempotency-Key and made once", async () => {
    const campaignId = await activeCampaign("Lost answers");
    const email = `dropped-${Date.now()}@example.org`;
    const sent: { key: string | null; status: number }[] = [];
    let dropped = false;
    // The first POST reaches the server and is answered, but the answer never arrives.
    const dropFirstAnswer: FetchLike = async (request) => {
      const response = await fetch(request);
      if (request.method !== "POST") return response;
      sent.push({ key: request.headers.get("idempotency-key"), status: response.status });
      if (dropped) return response;
      dropped = true;
      await response.arrayBuffer();
      throw new TypeError("fetch failed: the connection was reset");
    };
    const donor = createClient({ baseUrl: server.url, fetch: dropFirstAnswer, retries: { baseDelayMs: 10, maxDelayMs: 50 } });

    const { data, response } = await donor.POST("/api/donations", { body: { campaignId, amount: 2500, email } });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ campaignId, amount: 2500, email, status: "PENDING" });
    expect(sent).toHaveLength(2);
    expect(sent[0].key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1].key).toBe(sent[0].key);
    expect(sent.map((s) => s.status)).toEqual([201, 201]);
    expect(response.headers.get("idempotent-replayed")).toBe("true");

    const { data: list } = await admin.GET("/api/orgs/{idOrSlug}/donations", {
      params: { path: { idOrSlug: slug }, query: { q: email } },
    });
    expect(list!.data.map((d) => d.id)).toEqual([data!.id]);
  });

  it("paginate() visits every row once: campaigns page by page, donations cursor by cursor", async () => {
    const created: string[] = [];
    for (let i = 1; i <= 25; i++) created.push(await activeCampaign(`Paged ${i}`));

    const campaigns: string[] = [];
    for await (const c of admin.paginate("/api/orgs/{idOrSlug}/campaigns", { params: { path: { idOrSlug: slug }, query: { limit: 4 } } })) {
      campaigns.push(c.id);
    }
    expect(campaigns).toHaveLength(new Set(campaigns).size);
    expect(campaigns).toEqual(expect.arrayContaining(created));
    const { data: all } = await admin.GET("/api/orgs/{idOrSlug}/campaigns", { params: { path: { idOrSlug: slug } } });
    expect(campaigns).toEqual(all!.data.map((c) => c.id));

    const donor = createClient({ baseUrl: server.url });
    const gifts: string[] = [];
    for (let i = 1; i <= 12; i++) {
      const { data } = await donor.POST("/api/donations", {
        body: { campaignId: created[0], amount: 1000 + i, email: `paged-${i}@example.org` },
      });
      gifts.push(data!.id);
    }
    const pages: (string | undefined)[] = [];
    const visited: string[] = [];
    // The standalone form, over the client's own call.
    for await (const d of paginate(({ cursor }) => {
      pages.push(cursor);
      return admin.GET("/api/orgs/{idOrSlug}/donations", {
        params: { path: { idOrSlug: slug }, query: { campaignId: created[0], limit: 5, cursor } },
      });
    })) {
      visited.push(d.id);
    }
    expect(pages).toHaveLength(3);
    expect(visited).toHaveLength(12);
    expect([...visited].sort()).toEqual([...gifts].sort());

    const viaClient: string[] = [];
    for await (const d of admin.paginate("/api/orgs/{idOrSlug}/donations", {
      params: { path: { idOrSlug: slug }, query: { campaignId: created[0], limit: 5 } },
    })) {
      viaClient.push(d.id);
    }
    expect(viaClient).toEqual(visited);
  });

  it("verifyWebhook accepts a delivery of the test event as sent, and refuses a tampered or wrongly keyed one", async () => {
    const deliveries: { body: string; headers: http.IncomingHttpHeaders }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        deliveries.push({ body, headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/goodfund`;
      const { data: endpoint, error } = await admin.POST("/api/orgs/{idOrSlug}/webhook-endpoints", {
        params: { path: { idOrSlug: slug } },
        body: { url, eventTypes: ["payout.paid"] },
      });
      if (!endpoint) throw new Error(`could not create the endpoint: ${JSON.stringify(error)}`);
      expect(endpoint.secret).toMatch(/^whsec_/);
      const queued = await admin.POST("/api/orgs/{idOrSlug}/webhook-endpoints/{id}/test", {
        params: { path: { idOrSlug: slug, id: endpoint.id } },
      });
      expect(queued.response.status).toBe(202);

      // The server's worker delivers it (it runs every few seconds).
      const deadline = Date.now() + 60_000;
      while (deliveries.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(deliveries).toHaveLength(1);
      const [{ body, headers }] = deliveries;

      const event = verifyWebhook<{ message?: string }>(body, headers, endpoint.secret);
      expect(event.type).toBe("webhook.test");
      expect(event.id).toBe(headers["webhook-id"]);
      expect(event.createdAt).toBeTypeOf("string");
      // The same delivery as a fetch Request's Headers and raw bytes (what a framework hands over).
      const asFetch = new Headers(Object.entries(headers).map(([k, v]) => [k, String(v)] as [string, string]));
      expect(verifyWebhook(new TextEncoder().encode(body), asFetch, endpoint.secret).id).toBe(event.id);

      const tampered = body.replace('"webhook.test"', '"payout.paid"');
      expect(tampered).not.toBe(body);
      expect(() => verifyWebhook(tampered, headers, endpoint.secret)).toThrow(WebhookVerificationError);
      const otherSecret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
      expect(() => verifyWebhook(body, headers, otherSecret)).toThrow(WebhookVerificationError);
      expect(() =>
        verifyWebhook(body, { ...headers, "webhook-timestamp": String(Math.floor(Date.now() / 1000) - 3600) }, endpoint.secret),
      ).toThrow(WebhookVerificationError);
      const { "webhook-signature": _dropped, ...unsigned } = headers;
      expect(() => verifyWebhook(body, unsigned, endpoint.secret)).toThrow(WebhookVerificationError);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
