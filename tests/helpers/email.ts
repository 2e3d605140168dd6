import { renderEmail, type RenderedEmail } from "@/lib/email/render";
import type { EmailMessage, EmailPropsByTemplate, EmailTemplate } from "@/lib/email/types";

/** One template rendered for zoe@example.org, as a Stripe-mode install sends it unless `testMode`. */
export const renderTemplate = <T extends EmailTemplate>(
  template: T,
  props: EmailPropsByTemplate[T],
  testMode = false,
): Promise<RenderedEmail> => renderEmail({ template, to: "zoe@example.org", props } as EmailMessage<T>, { testMode });
