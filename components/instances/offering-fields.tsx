"use client";

import { useTranslations } from "next-intl";
import { SelectField } from "@/components/ui/select-field";
import type { LaunchOffering, LaunchRegion } from "./launch-options";

function offeringLabel(o: LaunchOffering, t: ReturnType<typeof useTranslations>): string {
  const gpu = o.migProfile
    ? t("gpu.mig", { model: o.gpuModelName, profile: o.migProfile })
    : t("gpu.whole", { model: o.gpuModelName, count: o.gpuCount });
  return t("launch.offeringOption", {
    id: o.instanceTypeId,
    gpu,
    memory: o.gpuMemoryGib,
    vcpus: o.vcpus,
    ram: o.ramGib,
  });
}

/**
 * The offering: a region, then an instance type on sale there. Regions outside the organization's data
 * residency are listed but cannot be chosen, so people see why a region they expected is missing.
 */
export function OfferingFields({
  regions,
  inRegion,
  region,
  instanceType,
  onRegion,
  onInstanceType,
  errors,
}: {
  regions: LaunchRegion[];
  inRegion: LaunchOffering[];
  region: string;
  instanceType: string;
  onRegion: (code: string) => void;
  onInstanceType: (id: string) => void;
  errors?: Record<string, string[]>;
}) {
  const t = useTranslations("Instances");
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectField
        name="region"
        label={t("launch.region")}
        value={region}
        onChange={(e) => onRegion(e.target.value)}
        errors={errors?.region}
      >
        <option value="">{t("launch.chooseRegion")}</option>
        {regions.map((r) => {
          const values = { name: r.name, code: r.code, jurisdiction: r.jurisdiction };
          return (
            <option key={r.code} value={r.code} disabled={!r.allowed}>
              {r.allowed ? t("launch.regionOption", values) : t("launch.regionOptionBlocked", values)}
            </option>
          );
        })}
      </SelectField>
      <SelectField
        name="instanceType"
        label={t("launch.instanceType")}
        value={instanceType}
        onChange={(e) => onInstanceType(e.target.value)}
        errors={errors?.instanceType}
        hint={region && inRegion.length === 0 ? t("launch.noOfferings") : undefined}
      >
        <option value="">{t("launch.chooseInstanceType")}</option>
        {inRegion.map((o) => (
          <option key={o.instanceTypeId} value={o.instanceTypeId}>
            {offeringLabel(o, t)}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
