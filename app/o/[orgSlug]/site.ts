import { headers } from "next/headers";
import { CUSTOM_DOMAIN_HEADER, EMBED_HEADER } from "@/lib/hosted-urls/routes";

/**
 * The path prefix of the organization's public pages as this request reached them: "" on its
 * custom domain (`/donate/{slug}`), `/o/{orgSlug}` on the app's host. proxy.ts sets the header.
 */
export async function orgBasePath(orgSlug: string): Promise<string> {
  return (await headers()).get(CUSTOM_DOMAIN_HEADER) === "1" ? "" : `/o/${orgSlug}`;
}

/** Whether this request is for the embeddable form's pages (proxy.ts sets the header), shown in another site's frame. */
export async function isEmbedRequest(): Promise<boolean> {
  return (await headers()).get(EMBED_HEADER) === "1";
}
