"use client";

import { CheckboxField, TextField } from "@/components/ui/field";
import { SuggestedAmounts } from "../campaign-editor-fields";
import { moneyProps, Section, type CampaignFields, type MoneyInput } from "./section";

/**
 * The goal, the smallest gift, the suggested amounts, custom amounts and recurring gifts. An event
 * sells tickets at their price (its own section): only its goal is asked here.
 */
export function AmountsSection({ fields, money }: { fields: CampaignFields; money: MoneyInput }) {
  const { text, check, values, err, set, blur } = fields;
  if (values.type === "EVENT")
    return (
      <Section id="cs-amounts" title="Goal">
        <div className="form-grid">
          <TextField {...text("goalAmountCents")} label="Goal" optional {...moneyProps(money)} placeholder="5000" />
        </div>
        <CheckboxField {...check("showGoal")} label="Show the goal and progress on the donate page" />
      </Section>
    );
  return (
    <Section id="cs-amounts" title="Goal and amounts">
      <div className="form-grid">
        <TextField {...text("goalAmountCents")} label="Goal" optional {...moneyProps(money)} placeholder="5000" />
        <TextField
          {...text("minAmountCents")}
          label="Minimum gift"
          optional
          {...moneyProps(money)}
          placeholder={money.minimumInput}
          hint={`At least ${money.minimum}.`}
        />
      </div>
      <CheckboxField {...check("showGoal")} label="Show the goal and progress on the donate page" />
      <SuggestedAmounts
        amounts={values.suggestedAmounts}
        money={money.symbol}
        inputMode={money.inputMode}
        minimum={money.minimum}
        err={err}
        onChange={(list) => set("suggestedAmounts", list)}
        onBlur={blur("suggestedAmounts")}
      />
      <CheckboxField {...check("allowCustomAmount")} label="Let donors enter their own amount" />
      <CheckboxField
        {...check("allowRecurring")}
        label="Allow recurring gifts (weekly, monthly, quarterly, yearly)"
        hint={values.type === "MEMBERSHIP" ? "Memberships are recurring, so this must stay on." : undefined}
      />
      {values.allowRecurring && (values.type === "DONATION" || values.type === "PEER_TO_PEER") ? (
        <CheckboxField
          {...check("monthlyUpsell")}
          label="Offer a smaller monthly gift after a one-time choice"
          hint="Shown once on the donate form; the outcome is recorded on each donation."
        />
      ) : null}
    </Section>
  );
}
