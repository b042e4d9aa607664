/**
 * Series styles: colours that keep at least 3:1 contrast on white and on slate-950, each paired with a dash
 * pattern so two lines never differ by colour alone.
 */
const COLORS = ["#c2410c", "#1d4ed8", "#15803d", "#7e22ce", "#be123c", "#0f766e", "#a16207", "#475569"];
const DASHES = ["", "6 3", "2 3", "10 3 2 3"];

export type SeriesStyle = { color: string; dash: string; width: number };

export function seriesStyle(index: number): SeriesStyle {
  return {
    color: COLORS[index % COLORS.length] as string,
    dash: DASHES[index % DASHES.length] as string,
    width: 1.75,
  };
}

/** The averaged line over per-GPU lines: the text colour (dark or light with the theme), thicker, so it leads. */
export const EMPHASIS_STYLE: SeriesStyle = { color: "currentColor", dash: "", width: 2.75 };
