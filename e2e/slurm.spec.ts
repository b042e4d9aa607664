import { spawnSync } from "node:child_process";
import { expect, type Page, test } from "@playwright/test";
import { SLURM_REGION } from "./support/engines";
import { as, expectAccessible } from "./support/fixtures";
import {
  connectionToken,
  e2eState,
  sql,
  stateOf,
  stopOnPage,
  terminateOnPage,
} from "./support/instance-page";

/**
 * A region served by a real Slurm cluster (started by the global setup, test/slurm/cluster.ts): the notebook is a
 * real Slurm job running Debian's Jupyter on a virtual node, and its GPU readings come from `srun --overlap
 * nvidia-smi` inside the job (a stand-in nvidia-smi printing recorded H100 output: the host has no GPU).
 */
/** squeue's view of a job, on the cluster itself. */
function slurmJobState(jobId: string): string {
  const r = spawnSync("squeue", ["-h", "-t", "all", "-j", jobId, "-o", "%T"], {
    env: { ...process.env, SLURM_CONF: e2eState().slurmConf ?? "" },
    encoding: "utf8",
  });
  return r.stdout.trim();
}

async function openLaunchForm(page: Page, instanceType: string) {
  await page.goto(
    `/acme-ai/instances/new?${new URLSearchParams({ instanceType, region: SLURM_REGION, pricing: "on_demand" })}`,
  );
  await expect(page.getByLabel("Region")).toHaveValue(SLURM_REGION);
}

// A worker tick (2 s) to submit, Slurm's scheduler (1 s), Jupyter's start (seconds on a loaded host), a tick to
// see it; the first GPU readings need a 10 s metrics pass.
const LIVE = { timeout: 120_000 };

test.describe("a notebook on the Slurm-backed region, as a member", () => {
  test.use(as("member"));

  test("it queues behind a full node with Slurm's ETA, runs as a Slurm job, opens with its token, shows GPU readings and logs, stops", async ({
    page,
  }) => {
    const skipped = e2eState().slurmSkipped;
    test.skip(skipped !== null, `No Slurm cluster for this run: ${skipped}`);
    test.setTimeout(300_000);

    // First the cluster's one node is filled for 30 minutes (a container holding its 4 GPUs, time limit 30 min),
    // so the notebook waits in Slurm's queue and Slurm plans its start.
    const stamp = Date.now().toString(36);
    await openLaunchForm(page, "h100.4x");
    await page.getByLabel("Name", { exact: true }).fill(`hold-${stamp}`);
    await page
      .getByRole("group", { name: "Kind" })
      .getByRole("radio", { name: /^Container/ })
      .check();
    await page.getByLabel("Command", { exact: true }).fill("sleep");
    await page.getByLabel("Arguments", { exact: true }).fill("1800");
    await page.getByLabel("Maximum runtime (minutes)").fill("30");
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    await expect(page).toHaveURL(/\/acme-ai\/instances\/[0-9a-f-]{36}$/, LIVE);
    const holder = page.url();
    await expect(stateOf(page)).toHaveAccessibleName("State: Running", LIVE);

    await openLaunchForm(page, "h100.1x");
    const name = `hpc-${stamp}`;
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Launch", exact: true }).click();
    await expect(page).toHaveURL(/\/acme-ai\/instances\/[0-9a-f-]{36}$/, LIVE);
    const id = page.url().split("/").at(-1) as string;
    const notebook = page.url();

    // Queued in Slurm: the position and expected start are the cluster's (squeue --start), about 30 minutes out.
    const queue = page.getByRole("region", { name: "Waiting for capacity" });
    await expect(queue).toContainText("squeue --start", LIVE);
    await expect(queue).toContainText("#1 in the queue");
    await expect(queue).not.toContainText("Not known yet", LIVE);
    await expect(queue).toContainText(/Expected start\s*(2\d|30) min/);
    await expectAccessible(page);

    // The holder goes; Slurm starts the notebook.
    await page.goto(holder);
    await terminateOnPage(page, "hold-", LIVE.timeout);
    await page.goto(notebook);
    await expect(stateOf(page)).toHaveAccessibleName("State: Running", LIVE);
    // Slurm placed it: the timeline names the cluster's node, and Forja's row follows the real job.
    await expect(page.getByText(/Placed by the cluster on/)).toBeVisible();
    const [row] = await sql<{ provider_ref: string | null }>(
      "select provider_ref from instances where id = $1",
      [id],
    );
    const jobId = row?.provider_ref as string;
    expect(jobId).toMatch(/^\d+$/);
    expect(slurmJobState(jobId)).toBe("RUNNING");

    // The connection: Jupyter's URL on the node (no token in it) and the token to copy.
    const connection = page.getByRole("region", { name: "Connection" });
    const link = connection.getByRole("link", { name: /^http:\/\/127\.0\.0\.1:\d+\/tree$/ });
    await expect(link).toBeVisible();
    await expect(connection.getByRole("button", { name: "Copy Token" })).toBeVisible();
    const token = await connectionToken(page);
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    await expectAccessible(page);

    // Open it: Jupyter's own page asks for the token, then shows the notebook's file tree.
    const popupPromise = page.waitForEvent("popup");
    await link.click();
    const jupyter = await popupPromise;
    await jupyter.getByLabel(/Password or token/).fill(token);
    await jupyter.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(jupyter).toHaveTitle(/Home Page - Select or create a notebook/);
    await jupyter.close();

    // GPU readings from nvidia-smi inside the job's allocation.
    const util = page.getByRole("region", { name: "GPU utilization", exact: true });
    await expect(util.getByRole("row", { name: /GPU 0/ })).toContainText(/\d+(\.\d+)? %/, LIVE);
    // Its logs: the Jupyter server's own output, from the job's stderr.
    // The logs load once their section scrolls into view, as a person scrolls down to read them.
    await page.getByRole("region", { name: "Logs", exact: true }).scrollIntoViewIfNeeded();
    await expect(page.getByRole("log", { name: "Logs" })).toContainText(/NotebookApp/, LIVE);

    await stopOnPage(page, name, LIVE.timeout);
    // Stop is scancel: the cluster saw the job cancelled.
    expect(slurmJobState(jobId)).toBe("CANCELLED");

    await terminateOnPage(page, name, LIVE.timeout);
  });
});
