import type { Page } from "@playwright/test";
import { DEMO, expect, test } from "./support";

// The donate page in another language, on a phone: `?lang=es` (kept through the payment to the
// thank-you page), and a French browser with no `?lang=` at all.

const DONATE = `/o/${DEMO.orgSlug}/donate/${DEMO.donation}`;

// The phone is set here, so the desktop project's run is the phone run: once is enough (@desktop-only).
test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

async function noHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "the page is wider than the screen").toBeLessThanOrEqual(0);
}

test(
  "?lang=es: the donate page in Spanish, a sandbox gift, and the thank-you page in Spanish",
  { tag: "@desktop-only" },
  async ({ page }) => {
    await page.goto(`${DONATE}?lang=es`);
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByRole("heading", { name: "Haga una donación" })).toBeVisible();
    await expect(page.getByRole("group", { name: "Elija un importe" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Continuar al pago" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Ir al contenido" })).toBeAttached();
    // Money in Spanish: "25 US$", not "$25".
    await expect(page.getByRole("radio", { name: /^25\sUS\$$/ })).toBeAttached();
    // The language menu: each language in its own name, the current one marked.
    const menu = page.getByRole("navigation", { name: "Idioma" });
    await expect(menu.getByRole("link", { name: "Español" })).toHaveAttribute("aria-current", "true");
    await expect(menu.getByRole("link", { name: "Deutsch" })).toHaveAttribute("href", `${DONATE}?lang=de`);
    await noHorizontalScroll(page);

    // The form's own check, in Spanish.
    await page.getByRole("button", { name: "Continuar al pago" }).click();
    await expect(page.getByText("Introduzca su nombre")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Nombre" })).toBeFocused();

    await page.getByRole("radio", { name: /^25\sUS\$$/ }).check();
    await page.getByRole("textbox", { name: "Nombre" }).fill("Lucía");
    await page.getByRole("textbox", { name: "Apellidos" }).fill("García");
    await page.getByRole("textbox", { name: "Correo electrónico" }).fill(`lucia-${Date.now().toString(36)}@example.org`);
    await expect(page.getByText(/^Donará 25,00\sUS\$$/)).toBeVisible();
    // The form posts to the page itself, in Spanish (`?lang=es` kept), which makes the donation in Spanish.
    const sent = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === DONATE);
    await page.getByRole("button", { name: "Continuar al pago" }).click();
    const request = await sent;
    expect(new URL(request.url()).searchParams.get("lang")).toBe("es");
    expect(new URLSearchParams(request.postData() ?? "").get("amount")).toBe("2500");

    await expect(page.getByRole("heading", { name: "Pago" })).toBeFocused();
    await expect(page.getByText("Paso 2 de 2")).toBeVisible();
    await page.getByRole("textbox", { name: "Número de tarjeta" }).fill("4242 4242 4242 4242");
    await page.getByRole("textbox", { name: "Fecha de caducidad" }).fill("12 / 34");
    await page.getByRole("textbox", { name: "Código de seguridad" }).fill("123");
    await noHorizontalScroll(page);
    await page.getByRole("button", { name: /^Pagar 25,00\sUS\$$/ }).click();

    await page.waitForURL(/\/thank-you\?donation=[^&]+&lang=es$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("¡Gracias, Lucía!", { timeout: 20_000 });
    await expect(page.getByText("Su recibo está en camino a su correo electrónico.")).toBeVisible();
    await expect(page.getByRole("link", { name: /^← Volver a / })).toHaveAttribute("href", `${DONATE}?lang=es`);
    await noHorizontalScroll(page);

    // Back on the donate page, it says the gift went through, in Spanish.
    await page.getByRole("link", { name: /^← Volver a / }).click();
    await expect(page.getByText(/^Donó 25\sUS\$ hace un momento\./)).toBeVisible();
    await expect(page.getByRole("button", { name: "Volver a donar" })).toBeVisible();
  },
);

test.describe("a French browser", () => {
  test.use({ locale: "fr-FR" });

  test("gets the donate page in French without ?lang=, and can switch language from the keyboard", async ({ page }) => {
    await page.goto(DONATE);
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("heading", { name: "Faites un don" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Continuer vers le paiement" })).toBeVisible();
    await expect(page.getByText("Paiement sécurisé et chiffré")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Langue" }).getByRole("link", { name: "Français" })).toHaveAttribute(
      "aria-current",
      "true",
    );
    await noHorizontalScroll(page);

    // The menu from the keyboard: English, in its own name.
    const english = page.getByRole("link", { name: "English" });
    await english.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\?lang=en$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { name: "Make a donation" })).toBeVisible();
  });
});

test(
  "?lang=es: the sandbox's Test mode banner is in Spanish on the donate, thank-you and account pages",
  { tag: "@desktop-only" },
  async ({ page }) => {
    for (const path of [`${DONATE}?lang=es`, `${DONATE}/thank-you?donation=none&lang=es`, `/o/${DEMO.orgSlug}/account/sign-in?lang=es`]) {
      await page.goto(path);
      await expect(page.locator("html"), path).toHaveAttribute("lang", "es");
      const banner = page.getByRole("complementary", { name: "Modo de prueba" });
      await expect(banner, path).toHaveText("Modo de prueba — no se realizan pagos reales.");
      await expect(page.getByRole("complementary", { name: "Test mode" }), path).toHaveCount(0);
      await expect(page.getByText(/no real payments/i), path).toHaveCount(0);
    }
  },
);
