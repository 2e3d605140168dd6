import { Text } from "@react-email/components";
import type { TributeProps } from "@/lib/email/types";
import { emailIntl } from "./_components/i18n";
import { Action, EmailLayout } from "./_components/layout";
import { previewCampaign } from "./_components/preview";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

export type { TributeProps };

/** Who the honoree is told the gift is from: nobody by name when the donor gave anonymously. */
const giver = (p: TributeProps) => (p.anonymous ? null : p.donorName?.trim() || null);

export const subject = (p: TributeProps): string => {
  const { t } = emailIntl(p.locale);
  const donor = giver(p);
  const values = { type: p.type, honoree: p.honoreeName };
  return donor ? t("tribute.subjectFrom", { ...values, donor }) : t("tribute.subject", values);
};

/** Sent to `dedication.notifyEmail`: tells someone about a gift made in honor or memory of a person; never the amount. */
export default function Tribute(props: TributeProps & TestModeProps) {
  const { t } = emailIntl(props.locale);
  const donor = giver(props);
  const honoree = props.honoreeName;
  const org = props.orgName;
  const where = { type: props.type, honoree, campaign: props.campaignTitle, org };
  const heading = t("tribute.heading", { type: props.type, honoree });

  return (
    <EmailLayout
      locale={props.locale}
      testMode={props.testMode}
      preview={heading}
      heading={heading}
      footer={donor ? t("tribute.footerFrom", { donor, org }) : t("tribute.footer", { org })}
    >
      <Text style={styles.text}>{donor ? t("tribute.openingFrom", { ...where, donor }) : t("tribute.opening", where)}</Text>
      {props.message ? (
        <>
          <Text style={styles.text}>{donor ? t("tribute.wroteFrom", { donor }) : t("tribute.wrote")}</Text>
          <Text style={styles.quote}>“{props.message}”</Text>
        </>
      ) : null}
      <Text style={styles.text}>
        {props.type === "IN_MEMORY" ? t("tribute.closingMemory", { honoree, org }) : t("tribute.closingHonor", { honoree, org })}
      </Text>
      <Action href={props.campaignUrl}>{t("tribute.seeCampaign")}</Action>
    </EmailLayout>
  );
}

Tribute.PreviewProps = {
  ...previewCampaign,
  honoreeName: "Grace Okafor",
  type: "IN_HONOR",
  donorName: "Maya Okafor",
  anonymous: false,
  message: "Happy 80th birthday, Grandma! Here is to clean water for everyone.",
  campaignUrl: "https://goodfund.example.org/o/riverside/donate/clean-water",
} satisfies TributeProps;
