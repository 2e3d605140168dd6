import type { PageConfig } from "next";
import { DonatePage } from "@/app/o/[orgSlug]/donate/[slug]/donate-page";
import { getDonatePageProps } from "@/app/o/[orgSlug]/donate/[slug]/page-props";

/**
 * The hosted donate page, the one page served by Next.js's Pages Router: it is rendered on the
 * server and sends the browser no framework (`unstable_runtimeJS: false`), only its own small
 * script. An App Router page always loads the framework's client runtime (about 113 KiB), more than
 * the page's whole budget for JavaScript. Everything it shows lives beside the App Router's donate
 * pages, in app/o/[orgSlug]/donate/[slug]/.
 */
export const config: PageConfig = { runtime: "nodejs", unstable_runtimeJS: false };

export const getServerSideProps = getDonatePageProps;

export default DonatePage;
