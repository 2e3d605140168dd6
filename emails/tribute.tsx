import { Body, Button, Container, Head, Heading, Hr, Html, Preview, Section, Text } from "@react-email/components";
import type { TributeProps } from "@/lib/email/types";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";
import { base } from "./_components/styles";

export type { TributeProps };

const phrase = { IN_HONOR: "in honor of", IN_MEMORY: "in memory of" } as const;

/** Who the honoree is told the gift is from: nobody by name when the donor gave anonymously. */
const giver = (p: TributeProps) => (p.anonymous ? null : p.donorName?.trim() || null);

export const subject = (p: TributeProps): string => {
  const who = giver(p);
  return who ? `${who} made a gift ${phrase[p.type]} ${p.honoreeName}` : `A gift was made ${phrase[p.type]} ${p.honoreeName}`;
};

/** Sent to `dedication.notifyEmail`: tells someone about a gift made in honor or memory of a person; never the amount. */
export default function Tribute(props: TributeProps & TestModeProps) {
  const who = giver(props);
  const opening = `${who ?? "Someone who cares"} made a gift ${phrase[props.type]} ${props.honoreeName} to ${props.campaignTitle}, a campaign of ${props.orgName}.`;

  return (
    <Html lang="en" dir="ltr">
      <Head />
      <Preview>{`A gift ${phrase[props.type]} ${props.honoreeName}`}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <TestModeNote testMode={props.testMode} />
          <Heading as="h1" style={styles.h1}>
            {`A gift ${phrase[props.type]} ${props.honoreeName}`}
          </Heading>
          <Text style={styles.text}>{opening}</Text>
          {props.message ? (
            <>
              <Text style={styles.text}>{who ? `${who} wrote:` : "They wrote:"}</Text>
              <Text style={styles.quote}>“{props.message}”</Text>
            </>
          ) : null}
          <Text style={styles.text}>
            {props.type === "IN_MEMORY"
              ? `Gifts like this one keep the memory of ${props.honoreeName} alive in the work of ${props.orgName}.`
              : `Gifts like this one celebrate ${props.honoreeName} through the work of ${props.orgName}.`}
          </Text>
          <Section style={styles.actions}>
            <Button href={props.campaignUrl} style={styles.button}>
              See the campaign
            </Button>
          </Section>
          <Hr style={styles.hr} />
          <Text style={styles.footer}>
            {`${who ?? "The donor"} asked ${props.orgName} to let you know about this gift. Goodfund sent this message on their behalf.`}
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

Tribute.PreviewProps = {
  honoreeName: "Grace Okafor",
  type: "IN_HONOR",
  donorName: "Maya Okafor",
  anonymous: false,
  message: "Happy 80th birthday, Grandma! Here is to clean water for everyone.",
  campaignTitle: "Clean Water for Riverside",
  orgName: "Riverside Water Trust",
  campaignUrl: "https://goodfund.example.org/o/riverside/donate/clean-water",
} satisfies TributeProps;

const styles = {
  ...base,
} as const;
