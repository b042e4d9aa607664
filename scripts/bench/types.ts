/** One thing to time: `run` is called repeatedly after warm-up; `after` (untimed) cleans up after each run. */
export type Variant = {
  name: string;
  run: () => Promise<unknown>;
  after?: () => Promise<unknown>;
  /** Untimed, once before this variant's warm-up: a step between phases of one benchmark (e.g. ANALYZE). */
  before?: () => Promise<unknown>;
  /** At most this many timed runs (and one warm-up): for a slow baseline measured beside fast variants. */
  runs?: number;
  /** Name of the variant this one is divided by in its own ratio line (next to the benchmark's baseline). */
  against?: string;
};

/** A named benchmark: `setup` prepares its data once and returns the variants to compare. */
export type Benchmark = {
  name: string;
  description: string;
  setup: () => Promise<{
    variants: Variant[];
    /** Name of the variant every other one is divided by in the ratio lines. */
    baseline?: string;
    notes?: string[];
    /** Stops what setup started outside the database (e.g. a Slurm cluster). */
    teardown?: () => Promise<void>;
  }>;
};
