import { DEMO, expect, expectNoSeriousViolations, publicCampaign, signedInTest, test } from "./support";

// axe-core (WCAG 2.0 A/AA and 2.1 AA rules) on the hosted donate page and the campaign editor,
// at the project's width: no violation of impact "serious" or "critical". And the donate page
// works with the keyboard alone, from the first Tab to the thank-you page.

test.describe("donate pages", () => {
  for (const slug of [DEMO.donation, DEMO.event]) {
    test(`axe: /o/${DEMO.orgSlug}/donate/${slug}`, async ({ page }) => {
      await page.goto(`/o/${DEMO.orgSlug}/donate/${slug}`);
      await expect(page.getByRole("button", { name: "Continue to payment" })).toBeVisible();
      await expectNoSeriousViolations(page, `donate page ${slug}`);
    });
  }

  test("axe: the payment step and a declined card's error", async ({ page }) => {
    await page.goto(`/o/${DEMO.orgSlug}/donate/${DEMO.donation}`);
    await page.getByRole("textbox", { name: "First name" }).fill("Alan");
    await page.getByRole("textbox", { name: "Last name" }).fill("Turing");
    await page.getByRole("textbox", { name: "Email" }).fill("alan@example.org");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByRole("heading", { name: "Payment" })).toBeVisible();
    await expectNoSeriousViolations(page, "payment step");
    await page.getByRole("textbox", { name: "Card number" }).fill("4000 0000 0000 0002");
    await page.getByRole("textbox", { name: "Expiry date" }).fill("12 / 34");
    await page.getByRole("textbox", { name: "Security code" }).fill("123");
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByText("Your card was declined.", { exact: false })).toBeVisible();
    await expectNoSeriousViolations(page, "declined card");
  });

  test("keyboard only: choose an amount, fill the form, pay", { tag: "@desktop-only" }, async ({ page }, _info) => {
    await page.goto(`/o/${DEMO.orgSlug}/donate/${DEMO.donation}`);
    await expect(page.getByRole("button", { name: "Continue to payment" })).toBeVisible();
    await page.waitForLoadState("networkidle");

    /** What has focus, in the words a screen reader would use. */
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        if (!el || el === document.body) return { tag: "body", type: "", label: "", checked: false };
        const label = (el.labels?.[0]?.textContent ?? el.getAttribute("aria-label") ?? el.textContent ?? "").trim();
        return { tag: el.tagName.toLowerCase(), type: el.type ?? "", label, checked: !!el.checked };
      });
    /** Presses Tab until `want` holds for the focused element (at most 40 presses). */
    async function tabTo(want: (f: Awaited<ReturnType<typeof focused>>) => boolean, what: string) {
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press("Tab");
        if (want(await focused())) return;
      }
      throw new Error(`Tab never reached ${what}; last focus: ${JSON.stringify(await focused())}`);
    }

    // The amount buttons are one radio group: Tab enters at the preselected one ($50), an arrow
    // key picks another.
    await tabTo((f) => f.type === "radio" && /^\$\d/.test(f.label), "the amount buttons");
    expect((await focused()).label).toBe("$50");
    await page.keyboard.press("ArrowLeft");
    expect(await focused()).toMatchObject({ type: "radio", label: "$25", checked: true });
    await expect(page.getByRole("radio", { name: "$25", exact: true })).toBeChecked();

    await tabTo((f) => f.label === "First name", "First name");
    await page.keyboard.type("Katherine");
    await page.keyboard.press("Tab");
    expect((await focused()).label).toBe("Last name");
    await page.keyboard.type("Johnson");
    await tabTo((f) => f.label === "Email", "Email");
    await page.keyboard.type("katherine@example.org");
    await tabTo((f) => f.tag === "button" && f.label === "Continue to payment", "the Continue to payment button");
    await page.keyboard.press("Enter");

    // Step 2: focus moves to its heading; the card fields follow in order.
    await expect(page.getByRole("heading", { name: "Payment" })).toBeFocused();
    await tabTo((f) => f.label === "Card number", "Card number");
    await page.keyboard.type("4242424242424242");
    await page.keyboard.press("Tab");
    expect((await focused()).label).toBe("Expiry date");
    await page.keyboard.type("1234");
    await page.keyboard.press("Tab");
    expect((await focused()).label).toBe("Security code");
    await page.keyboard.type("123");
    await page.keyboard.press("Tab");
    expect(await focused()).toMatchObject({ tag: "button", label: expect.stringMatching(/^Pay \$25(\.00)?$/) });
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/thank-you\?donation=/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank you, Katherine!", { timeout: 20_000 });
  });
});

signedInTest.describe("campaign editor", () => {
  signedInTest("axe: new campaign", async ({ page }) => {
    await page.goto(`/dashboard/${DEMO.orgSlug}/campaigns/new`);
    await expect(page.getByRole("form", { name: "New campaign" })).toBeVisible();
    await expectNoSeriousViolations(page, "campaign editor (new)");
  });

  signedInTest("axe: editing a live campaign (status, progress, sharing)", async ({ page }) => {
    const { id } = await publicCampaign(page.request, DEMO.orgSlug, DEMO.donation);
    await page.goto(`/dashboard/${DEMO.orgSlug}/campaigns/${id}`);
    await expect(page.getByRole("form", { name: "Edit campaign" })).toBeVisible();
    await expect(page.getByRole("textbox", { name: /^Title/ })).toHaveValue("Winter Meals Appeal");
    await expectNoSeriousViolations(page, "campaign editor (edit)");
  });

  signedInTest("a new event asks for its tickets and goal, not suggested amounts or recurring gifts", async ({ page }) => {
    await page.goto(`/dashboard/${DEMO.orgSlug}/campaigns/new`);
    const form = page.getByRole("form", { name: "New campaign" });
    await expect(form.getByRole("checkbox", { name: /Allow recurring gifts/ })).toBeVisible();
    await form.getByRole("combobox", { name: /^Type/ }).selectOption("EVENT");
    await expect(form.getByRole("textbox", { name: /^Ticket price/ })).toBeVisible();
    await expect(form.getByRole("textbox", { name: /^Goal/ })).toBeVisible();
    await expect(form.getByRole("checkbox", { name: /Allow recurring gifts/ })).toHaveCount(0);
    await expect(form.getByRole("checkbox", { name: /Let donors enter their own amount/ })).toHaveCount(0);
    await expect(form.getByText(/Suggested amounts/)).toHaveCount(0);
    await expectNoSeriousViolations(page, "campaign editor (new event)");
  });

  signedInTest(
    "a new main peer-to-peer campaign sets whether supporters start pages and teams, and whether staff approve them",
    async ({ page }) => {
      await page.goto(`/dashboard/${DEMO.orgSlug}/campaigns/new`);
      const form = page.getByRole("form", { name: "New campaign" });
      await expect(form.getByRole("checkbox", { name: /start their own fundraiser pages/ })).toHaveCount(0);
      await form.getByRole("combobox", { name: /^Type/ }).selectOption("PEER_TO_PEER");
      const pages = form.getByRole("checkbox", { name: /start their own fundraiser pages/ });
      await expect(pages).toBeChecked();
      await expect(form.getByRole("checkbox", { name: /Approve new pages/ })).not.toBeChecked();
      await expect(form.getByRole("checkbox", { name: /start and join teams/ })).toBeChecked();
      await pages.uncheck();
      await expect(form.getByRole("checkbox", { name: /Approve new pages/ })).toHaveCount(0);
      await expect(form.getByRole("checkbox", { name: /start and join teams/ })).toHaveCount(0);
      await expectNoSeriousViolations(page, "campaign editor (new peer-to-peer)");
    },
  );

  signedInTest("axe: new campaign with its errors shown", { tag: "@desktop-only" }, async ({ page }, _info) => {
    await page.goto(`/dashboard/${DEMO.orgSlug}/campaigns/new`);
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByRole("textbox", { name: /^Title/ })).toHaveAttribute("aria-invalid", "true");
    await expectNoSeriousViolations(page, "campaign editor (errors)");
  });
});
