/**
 * The launch form's fields ↔ the library's launch spec. The form speaks in text (lines of KEY=VALUE, one
 * argument per line, empty = not set); the spec speaks in numbers, arrays and nested objects. Shared by the
 * server action (to build the spec) and the form (to know which field an error belongs to). No rules live here:
 * the library's zod schema decides what is valid.
 */
import type { FieldErrors } from "@/lib/core";

/** Names of the form's inputs; an error on any other path is shown at the top of the form. */
export const LAUNCH_FIELDS = [
  "kind",
  "name",
  "project",
  "region",
  "instanceType",
  "pricingModel",
  "image",
  "command",
  "args",
  "env",
  "exposedPort",
  "diskGib",
  "idlePct",
  "idleMinutes",
  "maxRuntime",
  "scheduleCron",
  "scheduleTimeZone",
  "autoRecover",
  "priority",
] as const;
export type LaunchField = (typeof LAUNCH_FIELDS)[number];

export type AdapterMessages = {
  envLine: (line: number) => string;
  idleBoth: string;
  scheduleTimeZone: string;
};

/** Where an error on a spec path shows in the form. */
export function formFieldOf(path: string): LaunchField | "_form" {
  if (path.startsWith("autoShutdown.idle.minutes")) return "idleMinutes";
  if (path.startsWith("autoShutdown.idle")) return "idlePct";
  if (path.startsWith("autoShutdown.maxRuntimeMinutes") || path.startsWith("maxRuntimeMinutes"))
    return "maxRuntime";
  if (path.startsWith("autoShutdown.schedule.timeZone")) return "scheduleTimeZone";
  if (path.startsWith("autoShutdown.schedule")) return "scheduleCron";
  const head = path.split(".")[0] ?? "";
  return (LAUNCH_FIELDS as readonly string[]).includes(head) ? (head as LaunchField) : "_form";
}

/** Spec-path errors regrouped by form field, without repeating the same message on one field. */
export function toFormErrors(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, messages] of Object.entries(errors)) {
    const field = formFieldOf(path);
    const list = out[field] ?? [];
    for (const m of messages) if (!list.includes(m)) list.push(m);
    out[field] = list;
  }
  return out;
}

function text(fd: FormData, name: string): string {
  const v = fd.get(name);
  return typeof v === "string" ? v.trim() : "";
}

/** Empty → undefined; a number → that number; anything else passes through so the schema names the problem. */
function num(fd: FormData, name: string): number | string | undefined {
  const v = text(fd, name);
  if (!v) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
}

function lines(value: string): string[] {
  return value
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/** The raw spec for `launch` (still to be parsed by its schema) and the errors only the form can see. */
export function launchInputFromForm(
  fd: FormData,
  msg: AdapterMessages,
): { input: Record<string, unknown>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const kind = text(fd, "kind");
  const pricingModel = text(fd, "pricingModel") || undefined;
  const input: Record<string, unknown> = {
    kind: kind || undefined,
    name: text(fd, "name"),
    project: text(fd, "project"),
    region: text(fd, "region"),
    instanceType: text(fd, "instanceType"),
    pricingModel,
    image: text(fd, "image"),
    diskGib: num(fd, "diskGib"),
    autoRecover: fd.get("autoRecover") === "on",
    priority: num(fd, "priority"),
  };

  // Container fields are hidden for notebooks; whatever they still hold is not part of a notebook's spec.
  if (kind === "container") {
    input.command = text(fd, "command") || null;
    const args = lines(text(fd, "args"));
    input.args = args.length ? args : null;
    const env: Record<string, string> = {};
    lines(text(fd, "env")).forEach((line, i) => {
      const eq = line.indexOf("=");
      if (eq <= 0) {
        errors.env = [...(errors.env ?? []), msg.envLine(i + 1)];
        return;
      }
      env[line.slice(0, eq).trim()] = line.slice(eq + 1);
    });
    input.env = Object.keys(env).length ? env : null;
    input.exposedPort = num(fd, "exposedPort") ?? null;
  }

  const idlePct = num(fd, "idlePct");
  const idleMinutes = num(fd, "idleMinutes");
  let idle: { utilizationBelowPct: unknown; minutes: unknown } | null = null;
  if (idlePct !== undefined && idleMinutes !== undefined)
    idle = { utilizationBelowPct: idlePct, minutes: idleMinutes };
  else if (idlePct !== undefined || idleMinutes !== undefined) {
    errors[idlePct === undefined ? "idlePct" : "idleMinutes"] = [msg.idleBoth];
  }
  const maxRuntime = num(fd, "maxRuntime");
  const cron = text(fd, "scheduleCron");
  const timeZone = text(fd, "scheduleTimeZone");
  let schedule: { cron: string; timeZone: string } | null = null;
  if (cron) {
    if (timeZone) schedule = { cron, timeZone };
    else errors.scheduleTimeZone = [msg.scheduleTimeZone];
  }
  if (idle || maxRuntime !== undefined || schedule) {
    input.autoShutdown = { idle, maxRuntimeMinutes: maxRuntime ?? null, schedule };
  }
  // The runtime cap also feeds the queue's ETAs, which read the top-level field.
  if (maxRuntime !== undefined) input.maxRuntimeMinutes = maxRuntime;
  return { input, errors };
}
