// The package ships no types; its output follows prom2json's shape.
declare module "parse-prometheus-text-format" {
  export type PromSample = { value?: string; labels?: Record<string, string>; timestamp_ms?: string };
  export type PromFamily = { name: string; help: string; type: string; metrics: PromSample[] };
  export default function parsePrometheusTextFormat(text: string): PromFamily[];
}
