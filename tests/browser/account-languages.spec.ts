import { DEMO, demoCampaign, donorContext, expect, monthlyGift, serverUrl, test, mailboxWithDonorLink } from "./support";

// The donor account in the donor's language: a German browser (Accept-Language) gets the account
// page in German and asks for its sign-in link in German; a sign-in link opened with ?lang=es
// keeps Spanish through "Continue" to the account page, where a monthly gift's amount is changed
// the way a Spanish donor types it (a comma for decimals). No sideways scroll at either width.

test.describe("donor account in the donor's language", () => {
  test.describe.configure({ timeout: 150_000 });

  test("German from the browser's language, then Spanish kept by ?lang= through sign-in; a monthly gift changed as 40,50", async ({
    page,
    request,
    browser,
  }, info) => {
    const run = `${Date.now().toString(36)}-${info.project.name}`;
    const donor = { firstName: "Lucía", lastName: "Gómez", email: `lucia.${run}@example.org` };
    await monthlyGift(request, (await demoCampaign(request)).id, donor);

    const context = await donorContext(browser, info, { locale: "de-DE", viewport: page.viewportSize() ?? undefined });
    const donorPage = await context.newPage();
    const noSidewaysScroll = async (what: string) => {
      const width = await donorPage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(width, `${what}: no sideways scroll`).toBeLessThanOrEqual(0);
    };

    await test.step("a German browser gets the account page in German and asks for its link in German", async () => {
      await donorPage.goto(`/o/${DEMO.orgSlug}/account`);
      await expect(donorPage.locator("html")).toHaveAttribute("lang", "de");
      await expect(donorPage.getByRole("heading", { level: 1, name: "Ihr Spenderkonto" })).toBeVisible();
      await noSidewaysScroll("German sign-in form");
      const field = donorPage.getByRole("textbox", { name: "E-Mail-Adresse" });
      await field.fill("not an address");
      await field.press("Enter");
      await expect(donorPage.getByRole("main").getByRole("alert")).toHaveText(/^Geben Sie die E-Mail-Adresse ein/);
      await field.fill(donor.email);
      const asked = donorPage.waitForRequest(
        (r) => r.method() === "POST" && r.url().endsWith(`/api/public/orgs/${DEMO.orgSlug}/donor-sessions`),
      );
      await donorPage.getByRole("button", { name: "Anmeldelink per E-Mail senden" }).click();
      expect((await asked).postDataJSON()).toEqual({ email: donor.email, locale: "de" });
      await expect(donorPage.getByRole("status")).toContainText(`Wenn ${donor.email} die Adresse`);
    });

    let signInUrl = "";
    await test.step("the link opened with ?lang=es shows the Continue step in Spanish", async () => {
      signInUrl = (await (await mailboxWithDonorLink(donorPage, donor.email)).getAttribute("href")) ?? "";
      expect(signInUrl).toContain("/account/sign-in?token=");
      // Asked for in German: the link opens the account pages in German unless told otherwise.
      expect(new URL(signInUrl, serverUrl()).searchParams.get("lang")).toBe("de");
      const url = new URL(signInUrl, serverUrl());
      url.searchParams.set("lang", "es");
      await donorPage.goto(url.pathname + url.search);
      await expect(donorPage.locator("html")).toHaveAttribute("lang", "es");
      await expect(donorPage.getByRole("heading", { level: 1, name: "Inicie sesión en su cuenta" })).toBeVisible();
    });

    await test.step("Continue keeps Spanish: the account page lists the gift and the monthly plan in Spanish", async () => {
      await donorPage.getByRole("button", { name: "Continuar a su cuenta" }).click();
      await donorPage.waitForURL((u) => u.pathname === `/o/${DEMO.orgSlug}/account` && u.searchParams.get("lang") === "es");
      await expect(donorPage.getByRole("heading", { level: 1 })).toHaveText(`Hola de nuevo, ${donor.firstName}`);
      const plans = donorPage.getByRole("region", { name: "Donaciones periódicas" });
      await expect(plans).toContainText("25,00 US$ al mes");
      await expect(plans).toContainText("Activa");
      await expect(donorPage.getByRole("region", { name: "Sus donaciones" })).toContainText("Donación mensual");
      await noSidewaysScroll("Spanish account page");
    });

    await test.step("the new amount typed with a decimal comma; a typo is explained in Spanish", async () => {
      const plans = donorPage.getByRole("region", { name: "Donaciones periódicas" });
      await plans.getByRole("button", { name: "Cambiar importe" }).click();
      const field = plans.getByRole("textbox", { name: "Nuevo importe mensual (USD)" });
      await expect(field).toBeFocused();
      await expect(field).toHaveValue("25");
      await field.fill("12,345");
      await field.press("Enter");
      await expect(field).toHaveAccessibleDescription(/Use como máximo 2 decimales$/);
      await field.fill("40,50");
      await field.press("Enter");
      await expect(plans.getByRole("status")).toHaveText("Su donación es ahora de 40,50 US$ al mes, a partir del próximo cargo.");
      await expect(plans).toContainText("40,50 US$ al mes");
    });

    await test.step("signing out shows the Spanish sign-in form again", async () => {
      await donorPage.getByRole("button", { name: "Cerrar sesión" }).click();
      await expect(donorPage.getByRole("heading", { level: 1, name: "Su cuenta de donante" })).toBeVisible();
    });
    await context.close();
  });
});
