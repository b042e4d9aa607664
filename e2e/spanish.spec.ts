import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { signUpFresh } from "./support/accounts";
import { type E2EState, STATE_FILE } from "./support/env";

/**
 * Issue 7's journey on the Spanish console: errors reach a Spanish reader as Spanish sentences from the
 * message catalog (a bad field at the field; a used-up budget as the budget's own message, not the GPU-quota
 * sentence), and the instance's timeline reads in Spanish. A fresh organization, so its budget blocks nobody
 * else's journeys.
 */
function state(): E2EState {
  return JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as E2EState;
}

async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: state().databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** Spend made through the libraries in a child process, as this person (see support/costs-seed.ts). */
function seedSpend(email: string, org: string): { actualUsd: number } {
  const res = spawnSync(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "e2e/support/costs-seed.ts",
      "spend",
      org,
      "a100-80gb.4x",
      "eu-es-mad1",
      "2",
      "default",
    ],
    { env: { ...process.env, DATABASE_URL: state().databaseUrl, COSTS_SEED_EMAIL: email }, encoding: "utf8" },
  );
  if (res.status !== 0) throw new Error(`costs seed failed:\n${res.stderr}`);
  return JSON.parse(res.stdout.trim().split("\n").at(-1) ?? "{}");
}

async function toSpanish(page: Page, org: string) {
  await page.goto(`/${org}/settings`);
  await page.getByRole("group", { name: "Language" }).getByRole("button", { name: "Español" }).click();
  await expect(page.getByRole("heading", { name: "Ajustes" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
}

test("en español: el mensaje del campo, el presupuesto agotado y el historial de la instancia", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const account = await signUpFresh(page, "espanol");
  const org = account.orgSlug;
  await toSpanish(page, org);

  // A launch that is accepted: its timeline reads in Spanish.
  const launchUrl = `/${org}/instances/new?${new URLSearchParams({
    instanceType: "l4.1x",
    region: "eu-es-mad1",
    pricing: "on_demand",
  })}`;
  await page.goto(launchUrl);
  await expect(page.getByRole("heading", { name: "Lanzar una instancia" })).toBeVisible();
  await page.getByLabel("Nombre", { exact: true }).fill("cuaderno-uno");
  await page.getByRole("button", { name: "Lanzar", exact: true }).click();
  await expect(page).toHaveURL(/\/instances\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  const timeline = page.getByRole("region", { name: "Historial de estados" });
  await expect(timeline).toContainText("Creada como");
  await expect(timeline).toContainText(/Solicitada|En cola/);
  await expect(timeline).not.toContainText(/Created as|Requested|Queued/);
  // Left as it is (queued, running, or one of the simulated fleet's deliberate provisioning failures): the
  // organization is this journey's own, and what follows does not depend on it.

  // Two hours of 4×A100 this month, metered: then a budget below that spend which blocks new launches.
  const { actualUsd } = seedSpend(account.email, org);
  expect(actualUsd).toBeGreaterThan(1);
  const budgetName = `Tope ${Date.now().toString(36)}`;
  await page.goto(`/${org}/budgets/new`);
  await page.getByLabel("Nombre", { exact: true }).fill(budgetName);
  await page.getByLabel("Importe mensual (USD)").fill("1");
  await page.getByRole("radio", { name: /Bloquear lanzamientos nuevos/ }).check();
  await page.getByRole("button", { name: "Crear presupuesto" }).click();
  await expect(page).toHaveURL(new RegExp(`/${org}/budgets/[0-9a-f-]{36}$`));

  // A bad field: the Spanish message at the field, and nothing is written.
  await page.goto(launchUrl);
  const name = page.getByLabel("Nombre", { exact: true });
  await name.fill("No Vale");
  await page.getByRole("button", { name: "Lanzar", exact: true }).click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription(/Usa minúsculas, dígitos y guiones/);
  await expect(
    page.getByRole("alert").filter({ hasText: "Algunos campos necesitan atención" }),
  ).toBeVisible();

  // A good field: refused by the used-up budget with the budget's own message (not the quota sentence).
  await name.fill("cuaderno-dos");
  await page.getByRole("button", { name: "Lanzar", exact: true }).click();
  const refusal = page.getByRole("alert").filter({ hasText: "está agotado" });
  await expect(refusal).toContainText(`El presupuesto «${budgetName}» está agotado`);
  await expect(refusal).toContainText("los nuevos lanzamientos están bloqueados");
  await expect(page.getByRole("alert").filter({ hasText: "Cuota superada" })).toHaveCount(0);
  await expect(page).toHaveURL(/\/instances\/new/);
  const [orgRow] = await sql<{ id: string }>("select id from organizations where slug = $1", [org]);
  const orgId = orgRow?.id;
  expect(orgId).toBeTruthy();
  expect(
    await sql(
      "select id from instances where org_id = $1 and name in ('no vale', 'No Vale', 'cuaderno-dos')",
      [orgId],
    ),
  ).toEqual([]);
});
