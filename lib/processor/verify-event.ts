import type Stripe from "stripe";
import { webhookVerifier } from "./webhook-signature";
import { getWebhookSecrets } from "./webhook-secret";

/** How old a signature's timestamp may be (Stripe's default): older deliveries are refused as replays. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** A delivery whose signature is missing, malformed, stale or not made with our secret. */
export class InvalidSignatureError extends Error {
  constructor() {
    super("Invalid signature");
    this.name = "InvalidSignatureError";
  }
}

/**
 * The event a delivery carries, once its signature header (`Stripe-Signature` or
 * `Processor-Signature`) is proven to be over this exact raw body, made with one of the webhook
 * secrets within the tolerance. Every processor event goes through here, the sandbox's own included.
 * Throws InvalidSignatureError when it is not; a missing secret is a configuration error.
 */
export async function verifyProcessorEvent(rawBody: string | Buffer, signatureHeader: string | null | undefined): Promise<Stripe.Event> {
  if (!signatureHeader) throw new InvalidSignatureError();
  for (const secret of getWebhookSecrets()) {
    try {
      return await webhookVerifier().webhooks.constructEventAsync(rawBody, signatureHeader, secret, SIGNATURE_TOLERANCE_SECONDS);
    } catch {
      // Not this secret (or not a valid signature at all): try the next one.
    }
  }
  throw new InvalidSignatureError();
}
