"use client";

import { CheckboxField, TextField } from "@/components/ui/field";
import { moneyProps, Section, type CampaignFields, type MoneyInput } from "./section";

/** A sponsor matching gifts: who, up to which budget, at which ratio (shown once matching is on). */
export function MatchingSection({ fields, money }: { fields: CampaignFields; money: MoneyInput }) {
  const { text, check, has } = fields;
  return (
    <Section id="cs-matching" title="Matching" hint="A sponsor matches gifts up to a budget; donors see it on the donate page.">
      <CheckboxField {...check("matchingEnabled")} label="Gifts are matched" />
      {has("matchingOrgName") ? (
        <>
          <TextField {...text("matchingOrgName")} label="Matched by" optional placeholder="Harbor Credit Union" />
          <div className="form-grid">
            <TextField
              {...text("matchingMaxCents")}
              label="Matching budget"
              optional
              {...moneyProps(money)}
              hint="Leave empty for no limit."
            />
            <TextField
              {...text("matchingRatioPct")}
              label="Match ratio"
              required
              inputMode="numeric"
              suffix="%"
              hint="100% matches one-for-one; 200% doubles each gift."
            />
          </div>
        </>
      ) : null}
    </Section>
  );
}
