import type { CSSProperties, ReactNode } from "react";
import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { Locale } from "@/lib/i18n/locales";
import { emailIntl } from "./i18n";
import { base } from "./styles";
import { TestModeNote } from "./test-mode-note";

type LayoutProps = {
  /** The recipient's language: `<html lang>` and the test-mode line. English when absent. */
  locale?: Locale;
  /** The inbox's preview line. */
  preview: string;
  testMode?: boolean;
  heading: ReactNode;
  headingStyle?: CSSProperties;
  /** The small print under the closing rule. */
  footer: ReactNode;
  children: ReactNode;
};

/**
 * The frame every email shares: page, card, the test-mode line of a sandbox install, the
 * heading, the template's own content, then a rule and the footer.
 */
export function EmailLayout({ locale, preview, testMode, heading, headingStyle, footer, children }: LayoutProps) {
  return (
    <Html lang={emailIntl(locale).locale} dir="ltr">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={base.body}>
        <Container style={base.container}>
          <TestModeNote testMode={testMode} locale={locale} />
          <Heading as="h1" style={headingStyle ?? base.h1}>
            {heading}
          </Heading>
          {children}
          <Hr style={base.hr} />
          <Text style={base.footer}>{footer}</Text>
        </Container>
      </Body>
    </Html>
  );
}

type ActionProps = {
  href: string;
  children: ReactNode;
  style?: CSSProperties;
  /** Also spell the address out under the button ("If the button does not work, …"), in `locale`: for links the reader must reach. */
  spelledOut?: boolean;
  locale?: Locale;
};

/** The email's main action: one button, and its address spelled out when asked, for mail clients that break buttons. */
export function Action({ href, children, style, spelledOut, locale }: ActionProps) {
  return (
    <>
      <Section style={base.actions}>
        <Button href={href} style={style ?? base.button}>
          {children}
        </Button>
      </Section>
      {spelledOut ? (
        <Text style={base.small}>
          {emailIntl(locale).t("common.linkFallback")}{" "}
          <Link href={href} style={base.link}>
            {href}
          </Link>
        </Text>
      ) : null}
    </>
  );
}
