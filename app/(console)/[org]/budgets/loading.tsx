import { PageSkeleton } from "@/components/costs/page-skeleton";

export default function BudgetsLoading() {
  return <PageSkeleton label="budgets.loading" />;
}
