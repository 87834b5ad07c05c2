// The editor's failure box: the message, a form-level error, and problems elsewhere in the
// document with their paths.

export function FormErrors(props: {
  message: string | null;
  formError?: string;
  others: readonly { path: string; message: string }[];
}) {
  if (!props.message) return null;
  return (
    <div role="alert" className="error">
      <p>{props.message}</p>
      {props.formError && <p>{props.formError}</p>}
      {props.others.length > 0 && (
        <ul>
          {props.others.map((o, i) => (
            <li key={i}>
              <code>{o.path}</code>: {o.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
