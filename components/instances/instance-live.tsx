"use client";

import { refreshLive, useLiveQuery } from "@/components/ui/live-query";
import type { InstanceDetailView, InstanceStateName } from "@/lib/provisioning";
import { InstanceActions, type RunInstanceAction } from "./instance-actions";
import { InstanceDetail } from "./instance-detail";
import { fetchJson, instancesApi } from "./labels";

const SETTLED: readonly InstanceStateName[] = ["terminated", "rejected", "cancelled", "failed"];
const QUIET: readonly InstanceStateName[] = ["running", "stopped", "preempted"];

/** Poll fast while something is about to change, slowly while it runs or rests, not at all once it is over. */
function pollEvery(state: InstanceStateName): number | false {
  if (SETTLED.includes(state)) return false;
  return QUIET.includes(state) ? 10_000 : 2_000;
}

export function instanceQueryKey(org: string, id: string) {
  return ["instance", org, id] as const;
}

/**
 * Everything on the instance page that changes by itself: state, timeline, queue position, connection details,
 * cost and the legal actions. One route handler answers for all of it, so they never disagree.
 */
export function InstanceLive({
  org,
  initial,
  run,
  canConnect,
}: {
  org: string;
  initial: InstanceDetailView;
  run: RunInstanceAction;
  /** Members and up: a viewer is never given connection details, so the page has no Connection section for them. */
  canConnect: boolean;
}) {
  const key = instanceQueryKey(org, initial.id);
  const live = useLiveQuery({
    key,
    fetch: () => fetchJson<InstanceDetailView>(`${instancesApi(org)}/${initial.id}`),
    initialData: initial,
    every: (d) => pollEvery(d?.state ?? initial.state),
  });
  const data = live.data ?? initial;
  return (
    <InstanceDetail
      org={org}
      data={data}
      canConnect={canConnect}
      actions={
        <InstanceActions
          id={data.id}
          name={data.name}
          actions={data.actions}
          run={run}
          onDone={() => {
            refreshLive(key);
            refreshLive(["instances", org]);
          }}
        />
      }
    />
  );
}
