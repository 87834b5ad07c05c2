import type { ParamError } from "@/lib/control/lists/list-params";

// A list's address had a bad parameter: say which, and that its default is shown instead.

export function ListParamErrors({ errors }: { errors: ParamError[] }) {
  if (errors.length === 0) return null;
  return (
    <p className="error" role="alert" data-testid="list-param-error">
      {errors.map((e) => e.message).join("; ")} (the default is shown instead).
    </p>
  );
}
