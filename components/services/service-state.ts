/** What the console says of a service: scaled to zero, scaling (ready ≠ desired), or serving. */
export function serviceState(s: { desired: number; ready: number }): "idle" | "scaling" | "serving" {
  if (s.desired === 0 && s.ready === 0) return "idle";
  return s.ready === s.desired ? "serving" : "scaling";
}
