import { DEMO, expect, test } from "./support";

// The donate form's own state: each problem appears next to its field when the donor continues,
// goes as soon as that field is edited (the others stay until the next try), the focus goes to
// the first field in the form's order that has one, and the request carries what was typed.

const DONATE = `/o/${DEMO.orgSlug}/donate/${DEMO.donation}`;

test("problems appear next to their fields on continue, each leaves as its field is edited, and the gift goes as typed", async ({
  page,
}) => {
  await page.goto(DONATE);
  const other = page.getByRole("textbox", { name: "Or enter another amount" });
  const first = page.getByRole("textbox", { name: "First name" });
  const last = page.getByRole("textbox", { name: "Last name" });
  const email = page.getByRole("textbox", { name: "Email" });
  const next = page.getByRole("button", { name: "Continue to payment" });
  const flagged = async (field: typeof first, text: RegExp) => {
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(text);
  };
  const clean = async (field: typeof first) => {
    await expect(field).not.toHaveAttribute("aria-invalid", "true");
  };

  // Nothing is flagged before the donor first continues.
  for (const field of [other, first, last, email]) await clean(field);

  await other.fill("0.50");
  await next.click();
  // The amount comes first in the form: it has the focus.
  await expect(other).toBeFocused();
  await flagged(other, /The minimum gift is/);
  await flagged(first, /Enter your first name/);
  await flagged(last, /Enter your last name/);
  await flagged(email, /Enter your email address for the receipt/);

  // Editing a field clears its own problem only.
  await first.fill("Ada");
  await clean(first);
  await expect(page.getByText("Enter your first name")).toHaveCount(0);
  await flagged(last, /Enter your last name/);
  await other.fill("30");
  await clean(other);
  await flagged(email, /Enter your email address for the receipt/);

  // The next try checks everything again: the focus goes to the first field still wrong.
  await email.fill("not-an-email");
  await next.click();
  await expect(last).toBeFocused();
  await flagged(last, /Enter your last name/);
  await flagged(email, /Enter an email address like name@example.com/);
  await clean(other);
  await clean(first);

  const address = `form-${Date.now().toString(36)}@example.org`;
  await last.fill("Lovelace");
  await email.fill(address);
  // The form posts to the page itself, which creates the donation and opens the card step.
  const sent = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === DONATE);
  await next.click();
  const form = Object.fromEntries(new URLSearchParams((await sent).postData() ?? ""));
  expect(form).toMatchObject({ "amount.custom": "30", firstName: "Ada", lastName: "Lovelace", email: address });
  expect(form.amount, "typing an amount unticks the buttons").toBeUndefined();
  await expect(page.getByRole("heading", { name: "Payment" })).toBeFocused();
  await expect(page.getByText(/\$30\.00/).first()).toBeVisible();
});
