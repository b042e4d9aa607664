import { describe, expect, it } from "vitest";
import { launchSpecSchema } from "@/lib/provisioning";
import { formFieldOf, launchInputFromForm, toFormErrors } from "../launch-form-data";

const MSG = {
  envLine: (line: number) => `env line ${line}`,
  idleBoth: "both",
  scheduleTimeZone: "tz",
};

function form(fields: Record<string, string>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  return fd;
}

const BASE = {
  kind: "container",
  name: "trainer",
  project: "research",
  region: "eu-es-mad1",
  instanceType: "h100.1x",
  pricingModel: "spot",
  image: "pytorch-2.5-cuda12.4",
  diskGib: "200",
};

describe("launchInputFromForm", () => {
  it("turns the container fields into the spec the library's schema accepts", () => {
    const { input, errors } = launchInputFromForm(
      form({
        ...BASE,
        command: "python",
        args: "train.py\n\n  --epochs=3  \n",
        env: "A=1\nB=x=y\n",
        exposedPort: "8080",
        autoRecover: "on",
      }),
      MSG,
    );
    expect(errors).toEqual({});
    const spec = launchSpecSchema.parse(input);
    expect(spec).toMatchObject({
      command: "python",
      args: ["train.py", "--epochs=3"],
      // Only the first "=" separates the name: values may contain "=".
      env: { A: "1", B: "x=y" },
      exposedPort: 8080,
      diskGib: 200,
      autoRecover: true,
    });
    expect(spec.autoShutdown).toBeUndefined();
  });

  it("leaves container-only fields out of a notebook's spec even if the hidden inputs still hold text", () => {
    const { input } = launchInputFromForm(form({ ...BASE, kind: "notebook", command: "rm -rf /" }), MSG);
    expect(input.command).toBeUndefined();
    expect(launchSpecSchema.safeParse(input).success).toBe(true);
  });

  it("reports a malformed KEY=VALUE line with its line number", () => {
    const { errors } = launchInputFromForm(form({ ...BASE, env: "OK=1\nNOEQUALS\n=novalue" }), MSG);
    expect(errors.env).toEqual(["env line 2", "env line 3"]);
  });

  it("asks for both idle fields, and a time zone with a schedule", () => {
    const { errors } = launchInputFromForm(form({ ...BASE, idlePct: "10", scheduleCron: "0 20 * * *" }), MSG);
    expect(errors).toEqual({ idleMinutes: ["both"], scheduleTimeZone: ["tz"] });
  });

  it("builds auto-shutdown and copies the runtime cap to the top-level field used for queue ETAs", () => {
    const { input } = launchInputFromForm(
      form({
        ...BASE,
        idlePct: "5",
        idleMinutes: "30",
        maxRuntime: "120",
        scheduleCron: "0 20 * * 1-5",
        scheduleTimeZone: "Europe/Madrid",
      }),
      MSG,
    );
    const spec = launchSpecSchema.parse(input);
    expect(spec.autoShutdown).toEqual({
      idle: { utilizationBelowPct: 5, minutes: 30 },
      maxRuntimeMinutes: 120,
      schedule: { cron: "0 20 * * 1-5", timeZone: "Europe/Madrid" },
    });
    expect(spec.maxRuntimeMinutes).toBe(120);
  });

  it("passes non-numbers through so the schema names the problem at the field", () => {
    const { input } = launchInputFromForm(form({ ...BASE, diskGib: "lots" }), MSG);
    const res = launchSpecSchema.safeParse(input);
    expect(res.success).toBe(false);
    expect(res.error?.issues.map((i) => i.path.join("."))).toContain("diskGib");
  });
});

describe("form errors", () => {
  it("maps spec paths to the form's fields and unknown ones to the form", () => {
    expect(formFieldOf("autoShutdown.idle.minutes")).toBe("idleMinutes");
    expect(formFieldOf("autoShutdown.idle.utilizationBelowPct")).toBe("idlePct");
    expect(formFieldOf("autoShutdown.schedule.cron")).toBe("scheduleCron");
    expect(formFieldOf("autoShutdown.schedule.timeZone")).toBe("scheduleTimeZone");
    expect(formFieldOf("maxRuntimeMinutes")).toBe("maxRuntime");
    expect(formFieldOf("env.1BAD")).toBe("env");
    expect(formFieldOf("args.3")).toBe("args");
    expect(formFieldOf("priority")).toBe("priority");
    expect(formFieldOf("idempotencyKey")).toBe("_form");
  });

  it("merges both runtime paths into one field without repeating a message", () => {
    expect(
      toFormErrors({
        maxRuntimeMinutes: ["At most 30 days"],
        "autoShutdown.maxRuntimeMinutes": ["At most 30 days", "At least 10 minutes"],
      }),
    ).toEqual({ maxRuntime: ["At most 30 days", "At least 10 minutes"] });
  });
});
