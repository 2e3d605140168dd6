"use client";

import { CheckboxField } from "@/components/ui/field";
import { Section, type CampaignFields } from "./section";

/** A main peer-to-peer campaign: whether supporters start their own pages and teams from it, and whether staff approve them first. */
export function SupportersSection({ fields }: { fields: CampaignFields }) {
  const { check, has } = fields;
  if (!has("allowSupporterPages")) return null;
  return (
    <Section
      id="cs-supporters"
      title="Supporters' pages"
      hint="Supporters start a page of their own from the donate page; their gifts count toward this campaign."
    >
      <CheckboxField {...check("allowSupporterPages")} label="Let supporters start their own fundraiser pages" />
      {has("supporterPagesNeedApproval") ? (
        <CheckboxField
          {...check("supporterPagesNeedApproval")}
          label="Approve new pages before they go live"
          hint="New pages wait in the campaign's Fundraisers tab until someone approves them."
        />
      ) : null}
      {has("allowTeams") ? <CheckboxField {...check("allowTeams")} label="Let supporters start and join teams" /> : null}
    </Section>
  );
}
