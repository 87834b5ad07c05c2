import type { ReactNode } from "react";
import type { ActionResult } from "@/components/forms/action-result";
import { ConfirmButton } from "@/components/forms/confirm-button";

// The frame the alerts page's tables share (endpoints, rules, the delivery log): a
// scrolling table with its column headers, an Actions column for those who may act, and
// the Disable button of a row in it.

export function AlertTable({
  testId,
  columns,
  actions,
  children,
}: {
  testId: string;
  columns: readonly string[];
  /** whether the viewer may act: adds the Actions column (the rows add their DisableCell) */
  actions: boolean;
  children: ReactNode;
}) {
  return (
    <div className="table-scroll">
      <table data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {actions && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A row's Actions cell: Disable, asking first, while the row is not disabled yet. */
export function DisableCell({
  disabled,
  confirmLabel,
  question,
  action,
}: {
  disabled: boolean;
  confirmLabel: string;
  question: string;
  action: () => Promise<ActionResult<unknown>>;
}) {
  return (
    <td>
      {!disabled && (
        <ConfirmButton label="Disable" confirmLabel={confirmLabel} question={question} action={action} />
      )}
    </td>
  );
}
