/** What the launch form chooses from, prepared by the page (plain JSON for a client component). */
export type LaunchOffering = {
  instanceTypeId: string;
  regionCode: string;
  gpuModelName: string;
  /** "nvidia" | "amd": which images can run on it. */
  accelerator: string;
  gpuCount: number;
  migProfile: string | null;
  gpuMemoryGib: number;
  vcpus: number;
  ramGib: number;
  prices: Record<"on_demand" | "spot" | "reserved_1m" | "reserved_1y", number | null>;
};

export type LaunchRegion = { code: string; name: string; jurisdiction: string; allowed: boolean };
export type LaunchImage = { id: string; name: string; kinds: string[]; accelerator: string };
export type LaunchProject = { slug: string; name: string };

export type LaunchDefaults = {
  kind: "notebook" | "container";
  region: string;
  instanceType: string;
  pricingModel: "on_demand" | "spot" | "reserved";
  project: string;
};
