/** A shell example with a caption; the block scrolls sideways and is focusable so keyboards can scroll it. */
export function CurlExample({ label, command }: { label: string; command: string }) {
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="text-sm font-medium">{label}</figcaption>
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a horizontally scrollable block must be focusable to scroll by keyboard
        tabIndex={0}
        className="overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100 focus-visible:outline-2 focus-visible:outline-orange-600"
      >
        <code>{command}</code>
      </pre>
    </figure>
  );
}

export function curlList(origin: string, orgSlug: string, token = "$FORJA_TOKEN"): string {
  return `curl -H "Authorization: Bearer ${token}" \\\n  ${origin}/api/v1/orgs/${orgSlug}/instances`;
}

export function curlLaunch(origin: string, orgSlug: string): string {
  return [
    "curl -X POST \\",
    '  -H "Authorization: Bearer $FORJA_TOKEN" \\',
    '  -H "Content-Type: application/json" \\',
    '  -H "Idempotency-Key: ci-run-1234" \\',
    `  ${origin}/api/v1/orgs/${orgSlug}/instances \\`,
    `  -d '{"kind":"notebook","name":"ci-nb","project":"default","region":"eu-fi-hel1","instanceType":"l4.1x","image":"pytorch-2.5-cuda12.4"}'`,
  ].join("\n");
}
