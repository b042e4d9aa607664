// The part of autocannon's API the services and load benches use (the package ships no types).
declare module "autocannon" {
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    overallRate?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    timeout?: number;
  };
  type Histogram = { average: number; p50: number; p90: number; p99: number; max: number };
  type Result = {
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
  };
  /** The run is a promise of its result that also emits each response (its latency in ms) as it comes. */
  type Run = Promise<Result> & {
    on(
      event: "response",
      listener: (client: unknown, status: number, bytes: number, ms: number) => void,
    ): Run;
  };
  function autocannon(opts: Options): Run;
  export default autocannon;
}
