// The part of autocannon's API the services bench uses (the package ships no types).
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
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
