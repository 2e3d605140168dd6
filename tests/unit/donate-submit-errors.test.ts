/**
 * What the donate form says when POST /api/donations refuses a gift for a reason that is not one
 * field's: the two 429s of the abuse defences are told apart from a plain rate limit, each with
 * the wait its Retry-After gives.
 */
import { describe, expect, it } from "vitest";
import { createFailureText } from "@/components/donate/submit-errors";
import { TOO_MANY_HELD_TICKETS } from "@/lib/services/donations/held-tickets";

const t = (key: string, values?: Record<string, string | number>) => `${key}${values ? ` ${JSON.stringify(values)}` : ""}`;

describe("createFailureText", () => {
  it("tells a client holding too many unpaid tickets how long new orders are paused", () => {
    const text = createFailureText({ status: 429, retryAfter: "1500" }, { error: TOO_MANY_HELD_TICKETS, status: 429 }, t);
    expect(text).toBe('submitError.heldTicketsPause {"minutes":25}');
  });

  it("keeps the card-testing pause and the plain rate limit apart from it", () => {
    expect(
      createFailureText({ status: 429, retryAfter: "600" }, { error: "Too many failed payments, try again later", status: 429 }, t),
    ).toBe('submitError.declinedPause {"minutes":10}');
    expect(createFailureText({ status: 429, retryAfter: "20" }, { error: "Too many requests", status: 429 }, t)).toBe(
      'submitError.tooManySeconds {"seconds":20}',
    );
  });
});
