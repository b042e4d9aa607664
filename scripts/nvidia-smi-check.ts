/**
 * `npx tsx scripts/nvidia-smi-check.ts` on a machine with NVIDIA GPUs: runs the real nvidia-smi with the query the
 * Slurm provider uses and prints what Forja's parser makes of it (readings and the samples it would store), so a
 * driver whose output differs from the recorded stand-ins (test/slurm/recorded) is caught before a site is.
 * `--save <file>` also writes the raw output, to add it to the recorded outputs.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { NVIDIA_SMI_ARGS, nvidiaSmiSamples, parseNvidiaSmi } from "@/lib/provisioning";

let raw: string;
try {
  raw = execFileSync("nvidia-smi", NVIDIA_SMI_ARGS, { encoding: "utf8" });
} catch (err) {
  console.error(
    `nvidia-smi did not run here (${err instanceof Error ? err.message : err}); this check needs a GPU machine.`,
  );
  process.exit(2);
}
const save = process.argv.indexOf("--save");
if (save >= 0 && process.argv[save + 1]) fs.writeFileSync(process.argv[save + 1] as string, raw);
const readings = parseNvidiaSmi(raw);
console.log(`nvidia-smi ${NVIDIA_SMI_ARGS.join(" ")}\n${raw}`);
console.table(readings);
const samples = nvidiaSmiSamples(readings, new Date(), { hostIndexes: null, gpuCount: readings.length });
console.table(samples.map((s) => ({ ...s, at: s.at.toISOString() })));
const missing = readings.filter((r) => r.utilizationPct === null).map((r) => r.index);
if (missing.length > 0)
  console.log(`GPUs without utilization (MIG mode?): ${missing.join(", ")} — no samples for them.`);
console.log(readings.length > 0 ? `ok: ${readings.length} GPUs parsed` : "no GPU lines parsed");
process.exit(readings.length > 0 ? 0 : 1);
