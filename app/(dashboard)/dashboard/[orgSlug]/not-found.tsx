import { EmptyState } from "@/components/ui/empty-state";

// A campaign (or other page) of this organization that does not exist.
export default function OrgNotFound() {
  return (
    <EmptyState title="Not found" icon="?">
      This page does not exist in this organization. Use the navigation to find your way back.
    </EmptyState>
  );
}
