import { Text } from "@react-email/components";
import type { FundraiserGiftProps } from "@/lib/email/types";
import { emailIntl } from "./_components/i18n";
import { Action, EmailLayout } from "./_components/layout";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

export type { FundraiserGiftProps };

export const subject = (p: FundraiserGiftProps): string => {
  const { t, money } = emailIntl(p.locale);
  const amount = money(p.amountCents, p.currency);
  return p.donorName ? t("fundraiser.gift.subject", { donor: p.donorName, amount }) : t("fundraiser.gift.subjectAnonymous", { amount });
};

/** To a supporter, for each gift to their page: who gave (unless anonymous), how much, and their message. */
export default function FundraiserGift(props: FundraiserGiftProps & TestModeProps) {
  const { t, money } = emailIntl(props.locale);
  const amount = money(props.amountCents, props.currency);
  const heading = t("fundraiser.gift.heading", { page: props.pageTitle });
  return (
    <EmailLayout
      locale={props.locale}
      testMode={props.testMode}
      preview={heading}
      heading={heading}
      footer={t("fundraiser.gift.footer", { url: props.accountUrl })}
    >
      <Text style={styles.text}>
        {props.donorName
          ? t("fundraiser.gift.body", { name: props.firstName, donor: props.donorName, amount })
          : t("fundraiser.gift.bodyAnonymous", { name: props.firstName, amount })}
      </Text>
      {props.message ? (
        <>
          <Text style={styles.text}>{t("fundraiser.gift.wrote")}</Text>
          <Text style={styles.quote}>“{props.message}”</Text>
        </>
      ) : null}
      <Action href={props.pageUrl}>{t("fundraiser.gift.action")}</Action>
    </EmailLayout>
  );
}

FundraiserGift.PreviewProps = {
  orgName: "Riverside Water Trust",
  pageTitle: "Maya runs for clean water",
  firstName: "Maya",
  donorName: "Sam Lee",
  message: "Go Maya!",
  amountCents: 5000,
  currency: "usd",
  pageUrl: "https://goodfund.example.org/o/riverside/donate/maya-runs",
  accountUrl: "https://goodfund.example.org/o/riverside/account",
} satisfies FundraiserGiftProps;
