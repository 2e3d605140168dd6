import { Head, Html, Main, NextScript, type DocumentProps } from "next/document";
import type { DonatePageModel } from "@/app/o/[orgSlug]/donate/[slug]/donate-page";

/** The document of the Pages Router's page (the donate page), in the page's language. */
export default function Document(props: DocumentProps) {
  // Next.js's own error pages (404, 500) render here too, without the donate page's props.
  const page = props.__NEXT_DATA__.props?.pageProps as { page?: DonatePageModel; notFound?: { locale: string } } | undefined;
  const lang = page?.page?.locale ?? page?.notFound?.locale ?? "en";
  return (
    <Html lang={lang}>
      <Head />
      <body>
        <Main />
        <NextScript />
      </body>
    </Html>
  );
}
