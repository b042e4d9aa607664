"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, useEffect, useRef, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { CATALOG_SORTS, DEFAULT_PAGE_SIZE, GPU_COUNT_OPTIONS, PRICING_MODELS } from "@/lib/catalog/options";
import type { CatalogFilters as Filters } from "@/lib/catalog/schemas";

const MEMORY_STEPS = [16, 24, 40, 48, 80, 141];

type Props = { filters: Filters; gpuModels: Array<{ id: string; name: string }>; clearHref: string };

type Values = Record<"gpu" | "minMemoryGib" | "gpuCount" | "pricing" | "maxPrice" | "sort", string> & {
  available: boolean;
};

function valuesOf(f: Filters): Values {
  return {
    gpu: f.gpu[0] ?? "",
    minMemoryGib: f.minMemoryGib ? String(f.minMemoryGib) : "",
    gpuCount: f.gpuCount ?? "",
    pricing: f.pricing,
    maxPrice: f.maxPrice !== undefined ? String(f.maxPrice) : "",
    sort: f.sort,
    available: Boolean(f.available),
  };
}

const selectClass =
  "rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-orange-600 dark:border-slate-700 dark:bg-slate-900";

/**
 * The filter form. Without JavaScript it is a plain GET form (the URL carries the filters); with it, every
 * change pushes the new URL at once (typed prices after a pause), so links are shareable and Back works.
 */
export function CatalogFilters({ filters, gpuModels, clearHref }: Props) {
  const t = useTranslations("Catalog");
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const [values, setValues] = useState(() => valuesOf(filters));
  const formRef = useRef<HTMLFormElement>(null);
  const typing = useRef<ReturnType<typeof setTimeout> | null>(null);

  // Back/forward change the URL under us: show what the URL says, without remounting (focus stays put).
  // Only a key that differs from the last one shown resets the form: on mount the form already shows it, and a
  // value typed while the page hydrated (its change handler runs before this effect) must not be wiped. While
  // an edit waits to be pushed, the URL arriving from an earlier push is older than the form: keep the form.
  const key = JSON.stringify(valuesOf(filters));
  const shown = useRef(key);
  useEffect(() => {
    if (key === shown.current) return;
    shown.current = key;
    if (typing.current) return;
    setValues(JSON.parse(key) as Values);
  }, [key]);

  function navigate() {
    const form = formRef.current;
    if (!form) return;
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === "string" && v !== "") params.append(k, v);
    const qs = params.toString();
    startTransition(() => router.push(qs ? `${pathname}?${qs}` : pathname, { scroll: false }));
  }

  function change(name: keyof Values, value: string | boolean, debounce = false) {
    setValues((v) => ({ ...v, [name]: value }));
    if (typing.current) clearTimeout(typing.current);
    // Wait for the state to reach the DOM before reading the form.
    typing.current = setTimeout(
      () => {
        typing.current = null;
        navigate();
      },
      debounce ? 600 : 0,
    );
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (typing.current) clearTimeout(typing.current);
    typing.current = null;
    navigate();
  }

  return (
    <form
      ref={formRef}
      method="get"
      onSubmit={submit}
      aria-labelledby="catalog-filters-heading"
      aria-busy={pending}
      className="flex flex-col gap-3"
    >
      <h2 id="catalog-filters-heading" className="text-lg font-semibold">
        {t("filtersHeading")}
      </h2>
      {filters.region.map((r) => (
        <input key={r} type="hidden" name="region" value={r} />
      ))}
      {filters.jurisdiction.map((j) => (
        <input key={j} type="hidden" name="jurisdiction" value={j} />
      ))}
      {filters.pageSize !== DEFAULT_PAGE_SIZE ? (
        <input type="hidden" name="pageSize" value={filters.pageSize} />
      ) : null}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("gpuModel")}
          <select
            name="gpu"
            value={values.gpu}
            onChange={(e) => change("gpu", e.target.value)}
            className={selectClass}
          >
            <option value="">{t("any")}</option>
            {gpuModels.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("minMemory")}
          <select
            name="minMemoryGib"
            value={values.minMemoryGib}
            onChange={(e) => change("minMemoryGib", e.target.value)}
            className={selectClass}
          >
            <option value="">{t("any")}</option>
            {MEMORY_STEPS.map((g) => (
              <option key={g} value={g}>
                {t("memoryOption", { gib: g })}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("gpuCount")}
          <select
            name="gpuCount"
            value={values.gpuCount}
            onChange={(e) => change("gpuCount", e.target.value)}
            className={selectClass}
          >
            <option value="">{t("any")}</option>
            {GPU_COUNT_OPTIONS.map((c) => (
              <option key={c} value={c}>
                {c === "mig" ? t("migSliceOption") : t("gpuCountOption", { count: Number(c) })}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("pricingModel")}
          <select
            name="pricing"
            value={values.pricing}
            onChange={(e) => change("pricing", e.target.value)}
            className={selectClass}
          >
            {PRICING_MODELS.map((m) => (
              <option key={m} value={m}>
                {t(`pricing.${m}`)}
              </option>
            ))}
          </select>
        </label>
        <div className="flex flex-col gap-1">
          <label htmlFor="catalog-max-price" className="text-sm font-medium">
            {t("maxPrice")}
          </label>
          <input
            id="catalog-max-price"
            name="maxPrice"
            type="number"
            inputMode="decimal"
            min="0.01"
            step="0.01"
            value={values.maxPrice}
            onChange={(e) => change("maxPrice", e.target.value, true)}
            aria-describedby="catalog-max-price-hint"
            className={selectClass}
          />
          <p id="catalog-max-price-hint" className="text-xs text-slate-600 dark:text-slate-400">
            {t("maxPriceHint")}
          </p>
        </div>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("sort")}
          <select
            name="sort"
            value={values.sort}
            onChange={(e) => change("sort", e.target.value)}
            className={selectClass}
          >
            {CATALOG_SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`sorts.${s}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            name="available"
            value="1"
            checked={values.available}
            onChange={(e) => change("available", e.target.checked)}
            className="h-4 w-4 accent-orange-700"
          />
          {t("availableNow")}
        </label>
        <Button type="submit" variant="secondary">
          {t("apply")}
        </Button>
        <Link href={clearHref} className="text-sm text-orange-800 underline dark:text-orange-300">
          {t("clearAll")}
        </Link>
        <p role="status" aria-live="polite" className="text-sm text-slate-600 dark:text-slate-400">
          {pending ? t("updating") : ""}
        </p>
      </div>
    </form>
  );
}
