import { Img, Link, Section, Text } from "@react-email/components";
import type { ReceiptProps } from "@/lib/email/types";
import { ticketContentId } from "@/lib/tickets/content-id";
import { GiftSummary } from "./_components/gift-summary";
import { emailIntl, greetingName, type EmailIntl } from "./_components/i18n";
import { Action, EmailLayout } from "./_components/layout";
import { previewCampaign, previewDonor } from "./_components/preview";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

export type { ReceiptProps };

const thanks = (p: ReceiptProps, { t }: EmailIntl) => {
  const name = greetingName(p);
  return name ? t("receipt.thanksName", { name }) : t("receipt.thanks");
};

export const subject = (p: ReceiptProps): string => {
  const intl = emailIntl(p.locale);
  const values = { thanks: thanks(p, intl), amount: intl.money(p.amountCents, p.currency), campaign: p.campaignTitle };
  if (p.isRenewal && p.recurring) return intl.t("receipt.subjectRenewal", { ...values, interval: p.recurring.interval });
  if (p.receipt?.profile === "CA" && p.receipt.number) return intl.t("receipt.subjectOfficial", values);
  return intl.t("receipt.subject", values);
};

/**
 * The receipt's statement under the organization's profile (US when the email predates
 * profiles): US, the goods or services received and the deductible amount; CA, the attached
 * official receipt and the eligible amount; UK, the Gift Aid declaration; GENERIC, nothing.
 */
function profileStatement(p: ReceiptProps, { t, money }: EmailIntl, legalName: string): string | null {
  const r = p.receipt;
  const tickets = p.tickets ?? 0;
  switch (r?.profile ?? "US") {
    case "US":
      if (r && r.advantageCents > 0)
        return t("receipt.advantage", { value: money(r.advantageCents, p.currency), deductible: money(r.deductibleCents, p.currency) });
      return tickets > 0 ? t("receipt.goodsProvided", { count: tickets }) : t("receipt.noGoods");
    case "CA":
      return r?.number ? t("receipt.official", { number: r.number, eligible: money(r.deductibleCents, p.currency) }) : null;
    case "UK":
      return r?.giftAid ? t("receipt.giftAid", { legalName }) : null;
    default:
      return null;
  }
}

/**
 * The donor's receipt: everything a tax receipt needs (legal name, tax ID, receipt number, date,
 * amount, donation ID, the statement its receipt profile requires) plus the dedication and
 * recurring terms. A CA organization's official receipt is the attached PDF; this is its summary.
 */
export default function Receipt(props: ReceiptProps & TestModeProps) {
  const intl = emailIntl(props.locale, props.timeZone);
  const { t } = intl;
  const amount = intl.money(props.amountCents, props.currency);
  const legalName = props.orgLegalName?.trim() || props.orgName;
  const date = intl.date(props.date);
  const recurring = props.recurring;
  const tickets = props.tickets ?? 0;
  const hasTickets = tickets > 0;
  const { campaignTitle: campaign, orgName: org } = props;
  const receipt = props.receipt;
  const official = receipt?.profile === "CA" && Boolean(receipt.number);
  const statement = profileStatement(props, intl, legalName);

  return (
    <EmailLayout
      locale={props.locale}
      testMode={props.testMode}
      preview={t("receipt.preview", { amount, campaign, legalName })}
      heading={thanks(props, intl)}
      footer={t("receipt.footer", { email: props.donorEmail, legalName })}
    >
      <Text style={styles.text}>
        {props.isRenewal && recurring
          ? t("receipt.renewed", { interval: recurring.interval, amount, campaign, date, org })
          : t("receipt.received", { amount, campaign, date, org })}
      </Text>

      {props.dedication ? (
        <Text style={styles.text}>
          {t("receipt.dedication", { type: props.dedication.type, honoree: props.dedication.honoreeName })}
          {props.dedication.message ? ` ${t("receipt.dedicationMessage", { message: props.dedication.message })}` : null}
        </Text>
      ) : null}

      {recurring ? (
        <Text style={styles.text}>
          {`${t("receipt.charged", { amount: intl.money(recurring.amountCents, recurring.currency), interval: recurring.interval })} ${
            props.accountUrl
              ? t("receipt.manageInAccount", { interval: recurring.interval })
              : t("receipt.manageByContact", { interval: recurring.interval, org })
          }`}
        </Text>
      ) : null}

      {hasTickets ? <Text style={styles.text}>{t("receipt.tickets", { count: tickets, campaign })}</Text> : null}

      {props.ticketCodes && props.ticketCodes.length > 0 ? (
        <Section>
          <Text style={styles.text}>{t("receipt.ticketsShow")}</Text>
          {props.ticketCodes.map((c) => (
            <Section key={c.code} style={{ textAlign: "center", padding: "8px 0" }}>
              <Img
                src={`cid:${ticketContentId(c.code)}`}
                alt={t("receipt.ticketQrAlt", { name: c.attendeeName })}
                width="200"
                height="200"
                style={{ margin: "0 auto" }}
              />
              <Text style={styles.text}>
                <strong>{c.attendeeName}</strong> · {c.tierName}
                <br />
                {c.code}
              </Text>
            </Section>
          ))}
        </Section>
      ) : null}

      <GiftSummary
        locale={props.locale}
        rows={[
          { heading: official ? t("receipt.titleOfficial") : t("receipt.title") },
          receipt?.number ? [t("labels.receiptNumber"), receipt.number] : null,
          [t("labels.donor"), props.donorName?.trim() || props.donorEmail],
          [t("labels.amount"), amount],
          [t("labels.date"), date],
          [t("labels.campaign"), campaign],
          [t("labels.organization"), legalName],
          props.orgTaxId ? [t("labels.taxId"), props.orgTaxId] : null,
          [t("labels.donationId"), props.donationId],
          hasTickets ? [t("labels.tickets"), tickets] : null,
          official && receipt ? [t("labels.eligibleAmount"), intl.money(receipt.deductibleCents, props.currency)] : null,
        ]}
      />

      <Text style={styles.note}>{[statement, t("receipt.keep")].filter(Boolean).join(" ")}</Text>

      <Action href={props.campaignUrl}>{t("receipt.visitCampaign")}</Action>

      {props.accountUrl ? (
        <Text style={styles.note}>
          {t.rich("receipt.account", {
            org,
            link: (chunks) => (
              <Link href={props.accountUrl} style={styles.link}>
                {chunks}
              </Link>
            ),
          })}
        </Text>
      ) : null}
    </EmailLayout>
  );
}

Receipt.PreviewProps = {
  ...previewCampaign,
  ...previewDonor,
  amountCents: 5000,
  currency: "usd",
  orgLegalName: "Riverside Water Trust, Inc.",
  orgTaxId: "12-3456789",
  date: "2025-04-12T15:30:00.000Z",
  donationId: "don_01HZX4K9Q2M7V3T8",
  dedication: { type: "IN_HONOR", honoreeName: "Grace Okafor", message: "Happy 80th birthday, Grandma!" },
  recurring: { interval: "MONTH", amountCents: 5000, currency: "usd" },
  isRenewal: false,
  tickets: null,
  campaignUrl: "https://goodfund.example.org/o/riverside/donate/clean-water",
  accountUrl: "https://goodfund.example.org/o/riverside/account",
  receipt: { profile: "US", number: "2025-000042", advantageCents: 0, deductibleCents: 5000, giftAid: false },
} satisfies ReceiptProps;
