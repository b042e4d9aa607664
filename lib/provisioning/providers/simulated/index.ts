import type { Provider } from "../types";
import {
  planSimulatedProvisioning,
  simulatedConnection,
  simulatedSpotInterruption,
  simulatedStopDelayMs,
  simulatedTerminateDelayMs,
} from "./lifecycle";
import { simulatedLogs } from "./logs";
import { simulatedSamples } from "./metrics";

/**
 * The default provider: a fleet simulator with no external state. Every answer is a pure function of the
 * instance's simSeed and the times asked about, so tests fast-forward an injected clock and the 30-day demo
 * history is produced by the same code the live worker runs.
 */
export const simulatedProvider: Provider = {
  name: "simulated",
  planProvisioning: planSimulatedProvisioning,
  stopDelayMs: simulatedStopDelayMs,
  terminateDelayMs: simulatedTerminateDelayMs,
  connectionFor: simulatedConnection,
  samples: simulatedSamples,
  logs: simulatedLogs,
  spotInterruptionIn: simulatedSpotInterruption,
};

export { FAILURE_RATE, SPOT_INTERRUPTIONS_PER_HOUR, simFailureRate, simSpeed } from "./lifecycle";
export { IDLE_POWER_SHARE, powerEnvelope } from "./metrics";
export { mulberry32 } from "./prng";
export { TICK_MS } from "./workloads";
