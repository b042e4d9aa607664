import { describe, expect, it } from "vitest";
import { scheduleDue } from "@/lib/autoshutdown";

const madrid = { cron: "0 20 * * *", timeZone: "Europe/Madrid" };
const due = (since: string, s = madrid) => scheduleDue(s, new Date(since))?.dueAt.toISOString();

describe("cron schedules in a time zone", () => {
  it("fires 20:00 Madrid time at the right UTC instant on both sides of the spring change (31 March 2030)", () => {
    expect(due("2030-03-30T10:00:00Z")).toBe("2030-03-30T19:00:00.000Z");
    expect(due("2030-03-31T10:00:00Z")).toBe("2030-03-31T18:00:00.000Z");
  });

  it("and of the autumn change (27 October 2030)", () => {
    expect(due("2030-10-26T10:00:00Z")).toBe("2030-10-26T18:00:00.000Z");
    expect(due("2030-10-27T10:00:00Z")).toBe("2030-10-27T19:00:00.000Z");
  });

  it("skips to the next day when started after today's time, and honours weekdays", () => {
    expect(due("2030-03-30T19:30:00Z")).toBe("2030-03-31T18:00:00.000Z");
    // Weekdays at 19:00: started Friday evening → Monday 19:00 CEST.
    expect(due("2030-07-05T18:00:00Z", { cron: "0 19 * * 1-5", timeZone: "Europe/Madrid" })).toBe(
      "2030-07-08T17:00:00.000Z",
    );
  });
});
