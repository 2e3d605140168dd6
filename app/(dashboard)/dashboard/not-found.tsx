import { EmptyList } from "@/components/dashboard/ops/list-page";

// An organization or campaign that does not exist, or that the signed-in user can't see.
export default function DashboardNotFound() {
  return (
    <main id="main" className="simple-main">
      <EmptyList title="Not found" icon="?" href="/dashboard" linkLabel="Your organizations" primary>
        This page does not exist, or it belongs to an organization you are not a member of.
      </EmptyList>
    </main>
  );
}
