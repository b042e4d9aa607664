import { expect, test } from "@playwright/test";
import { as } from "./support/fixtures";

test.describe("signed in as the owner", () => {
  test.use(as("owner"));

  test("switching to Español changes the console's text, and back to English", async ({ page }) => {
    await page.goto("/acme-ai/settings");
    await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
    const language = page.getByRole("group", { name: "Language" });
    await expect(language.getByRole("button", { name: "English" })).toHaveAttribute("aria-pressed", "true");
    // Keyboard only: focus the button and press Enter.
    await language.getByRole("button", { name: "Español" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Ajustes" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(
      page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Catálogo" }),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Guardar nombre" })).toBeVisible();
    const idioma = page.getByRole("group", { name: "Idioma" });
    await expect(idioma.getByRole("button", { name: "Español" })).toHaveAttribute("aria-pressed", "true");

    // The choice is remembered on the next visit.
    await page.goto("/acme-ai/settings/members");
    await expect(page.getByRole("heading", { name: /Miembros/ }).first()).toBeVisible();
    await idioma.getByRole("button", { name: "English" }).click();
    await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });

  test("the dark theme toggle is a pressed button that survives a reload", async ({ page }) => {
    await page.goto("/acme-ai/settings");
    const toggle = page.getByRole("button", { name: "Dark theme" });
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    await toggle.press("Space");
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    await page.reload();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute("aria-pressed", "true");
    await page.getByRole("button", { name: "Dark theme" }).click();
    await expect(page.locator("html")).not.toHaveClass(/dark/);
  });
});

test("the sign-in and sign-up pages have the language switch", async ({ page }) => {
  await page.goto("/signin");
  await page.getByRole("group", { name: "Language" }).getByRole("button", { name: "Español" }).click();
  await expect(page.getByRole("heading", { name: "Inicia sesión en Forja" })).toBeVisible();
  await page.getByLabel("Correo electrónico").fill("nobody@acme.test");
  await page.getByLabel("Contraseña").fill("not-the-password");
  await page.getByRole("button", { name: "Iniciar sesión", exact: true }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "El correo o la contraseña no son correctos" }),
  ).toBeVisible();
  await page.getByRole("link", { name: "Crear una cuenta" }).click();
  await expect(page.getByRole("heading", { name: "Crea tu cuenta de Forja" })).toBeVisible();
  // Messages at the fields come from the catalog too, not only the labels.
  await page.getByLabel("Correo electrónico").fill("no-es-un-correo");
  await page.getByRole("button", { name: "Crear cuenta" }).click();
  await expect(page.getByLabel("Tu nombre")).toHaveAccessibleDescription("Escribe tu nombre");
  await expect(page.getByLabel("Correo electrónico")).toHaveAccessibleDescription(
    /Escribe una dirección de correo válida/,
  );
  await page.getByRole("group", { name: "Idioma" }).getByRole("button", { name: "English" }).click();
  await expect(page.getByRole("heading", { name: "Create your Forja account" })).toBeVisible();
});
