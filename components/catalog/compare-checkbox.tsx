/** Picks an offering for the compare view; submitted by the CompareForm around the results as `o=<key>`. */
export function CompareCheckbox({ value, label }: { value: string; label: string }) {
  return (
    <input
      type="checkbox"
      name="o"
      value={value}
      aria-label={label}
      className="size-4 accent-orange-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-600"
    />
  );
}
