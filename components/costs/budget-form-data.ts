import type { BudgetInput } from "@/lib/budgets";
import type { FieldErrors } from "@/lib/core";

/** The budget form's fields as the library's input; its schema decides what is valid. */
export function budgetInputFromForm(fd: FormData): BudgetInput {
  const kinds = fd.getAll("thresholdKind").map(String);
  const pcts = fd.getAll("thresholdPct").map(String);
  const action = String(fd.get("actionAt100") ?? "");
  const grace = String(fd.get("graceMinutes") ?? "");
  return {
    name: String(fd.get("name") ?? ""),
    project: String(fd.get("project") ?? ""),
    service: String(fd.get("service") ?? ""),
    amountUsd: String(fd.get("amountUsd") ?? "").trim(),
    thresholds: kinds.map((kind, i) => ({
      kind: kind as "actual" | "forecast",
      pct: (pcts[i] ?? "").trim(),
    })),
    recipientUserIds: fd.getAll("recipientUserIds").map(String),
    recipientEmails: splitEmails(String(fd.get("recipientEmails") ?? "")),
    actionAt100: action as BudgetInput["actionAt100"],
    // The grace period only matters when instances are stopped; elsewhere it keeps the default.
    graceMinutes: action === "stop_instances" ? grace : undefined,
  };
}

export function splitEmails(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The schema reports a bad address at "recipientEmails.3"; the form has one box for them all, so the message
 * names the address.
 */
export function toBudgetFormErrors(errors: FieldErrors, input: BudgetInput): FieldErrors {
  const out: FieldErrors = {};
  const add = (k: string, m: string) => {
    out[k] = [...new Set([...(out[k] ?? []), m])];
  };
  for (const [key, messages] of Object.entries(errors)) {
    const email = /^recipientEmails\.(\d+)$/.exec(key);
    const user = /^recipientUserIds\.\d+$/.exec(key);
    for (const m of messages) {
      if (email) add("recipientEmails", `${m}: ${input.recipientEmails?.[Number(email[1])] ?? ""}`);
      else if (user) add("recipientUserIds", m);
      else add(key, m);
    }
  }
  return out;
}
