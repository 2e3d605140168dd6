import { Text } from "@react-email/components";
import type { DonorErasureRequestProps } from "@/lib/email/types";
import { GiftSummary } from "./_components/gift-summary";
import { Action, EmailLayout } from "./_components/layout";
import type { TestModeProps } from "./_components/test-mode-note";
import { base as styles } from "./_components/styles";

export type { DonorErasureRequestProps };

const who = (p: DonorErasureRequestProps) =>
  p.donorName ? (p.donorEmail ? `${p.donorName} (${p.donorEmail})` : p.donorName) : (p.donorEmail ?? "A donor");

export const subject = (p: DonorErasureRequestProps): string => `A donor asked ${p.orgName} to erase their data`;

/**
 * Tells the organization's staff that a donor asked, from their account page, to have their
 * personal data erased, and that the request waits for an admin's approval (the organization
 * chose to review such requests). Links to the donors page, where admins approve or reject it.
 */
export default function DonorErasureRequest(props: DonorErasureRequestProps & TestModeProps) {
  return (
    <EmailLayout
      testMode={props.testMode}
      preview={`${who(props)} asked to have their personal data erased`}
      heading="An erasure request is waiting for you"
      footer={`You get this email as a contact of ${props.orgName} on Goodfund.`}
    >
      <Text style={styles.text}>
        {`${who(props)} asked ${props.orgName} to erase their personal data. An admin needs to approve or reject the request.`}
      </Text>
      <GiftSummary
        rows={[
          {
            note: "Approving removes their name, email, messages and dedications from every record. Their donations stay, without those details, so your totals and books do not change. Their open recurring plans are canceled.",
          },
        ]}
      />
      <Action href={props.reviewUrl} spelledOut>
        Review the request
      </Action>
    </EmailLayout>
  );
}

DonorErasureRequest.PreviewProps = {
  orgName: "Riverside Water Trust",
  donorName: "Ada Lovelace",
  donorEmail: "ada@example.org",
  reviewUrl: "https://goodfund.example.org/dashboard/riverside/donors#donor-requests",
} satisfies DonorErasureRequestProps;
