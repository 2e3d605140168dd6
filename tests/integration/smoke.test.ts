import { describe, expect, it } from "vitest";
import { get, newOrg, newCampaign } from "../helpers/api";

describe("smoke", () => {
  it("creates an org and a campaign and lists it", async () => {
    const { owner, org } = await newOrg();
    const c = await newCampaign(org, owner.token);
    const res = await get(`/api/orgs/${org.slug}/campaigns`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data[0].id).toBe(c.id);
  });
});
