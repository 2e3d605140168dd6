import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";

// An organization or campaign that does not exist, or that the signed-in user can't see.
export default function DashboardNotFound() {
  return (
    <main id="main" className="simple-main">
      <EmptyState
        title="Not found"
        icon="?"
        action={
          <Link className="button" href="/dashboard">
            Your organizations
          </Link>
        }
      >
        This page does not exist, or it belongs to an organization you are not a member of.
      </EmptyState>
    </main>
  );
}
