/** The axis look every Forja chart shares: readable ticks in the text colour and labels on both axes. */
export const AXIS_TICK = { fontSize: 12, fill: "currentColor" } as const;

export function xAxisLabel(value: string) {
  return { value, position: "insideBottom", offset: -12, fontSize: 12, fill: "currentColor" } as const;
}

export function yAxisLabel(value: string | undefined) {
  return {
    value,
    angle: -90,
    position: "insideLeft",
    fontSize: 12,
    fill: "currentColor",
    style: { textAnchor: "middle" },
  } as const;
}
