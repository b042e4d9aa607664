import { afterEach, describe, expect, it } from "vitest";
import { SIGN_IN_LIMITS, signInLimit } from "../rate-limit";

describe("sign-in limits", () => {
  afterEach(() => {
    delete process.env.FORJA_SIGNIN_LIMIT_PER_IP;
  });

  it("are the documented defaults", () => {
    expect(signInLimit("perIp")).toEqual({ max: 20, windowSeconds: 300 });
    expect(signInLimit("perEmailIp")).toEqual(SIGN_IN_LIMITS.perEmailIp);
    expect(signInLimit("perEmail")).toEqual(SIGN_IN_LIMITS.perEmail);
  });

  it("FORJA_SIGNIN_LIMIT_PER_IP raises only the per-address limit; nonsense keeps the default", () => {
    process.env.FORJA_SIGNIN_LIMIT_PER_IP = "500";
    expect(signInLimit("perIp")).toEqual({ max: 500, windowSeconds: 300 });
    expect(signInLimit("perEmailIp")).toEqual(SIGN_IN_LIMITS.perEmailIp);
    process.env.FORJA_SIGNIN_LIMIT_PER_IP = "lots";
    expect(signInLimit("perIp").max).toBe(20);
  });
});
