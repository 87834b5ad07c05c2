export function StatusBadge({ status }: { status: "active" | "suspended" }) {
  return <span className={`badge ${status === "active" ? "badge-ok" : "badge-danger"}`}>{status}</span>;
}
