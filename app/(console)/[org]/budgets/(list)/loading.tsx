import { PageSkeleton } from "@/components/costs/page-skeleton";

/**
 * In the (list) group on purpose: a loading boundary above budgets/[id] would stream that page, and its
 * notFound() (another organization's or a made-up id) would then render "Page not found" with HTTP 200.
 */
export default function BudgetsLoading() {
  return <PageSkeleton label="budgets.loading" />;
}
