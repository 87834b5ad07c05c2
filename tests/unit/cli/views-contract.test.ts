// The CLI's views (packages/client/src/cli/views.ts) are its own copy of the server's answers:
// the package is published alone and cannot import the server. This keeps the two in step.
// Each call the CLI makes is listed once with the view it reads the answer as:
// - at compile time (typecheck), every field of the view exists in the response schema, and
//   the schema's type is one the view accepts;
// - at run time, the OpenAPI document the server serves answers that call with that schema.
import { getRefId } from "@asteasolutions/zod-to-openapi";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openApiDocument } from "@/lib/control/openapi/generate";
import {
  CounterStateSchema,
  CreatedKeySchema,
  ImportResultSchema,
  KeyListSchema,
  ResetResultSchema,
} from "@/lib/control/openapi/schemas/admin";
import {
  AlertDeliveryListSchema,
  AlertEndpointListSchema,
  AlertRuleListSchema,
  AlertRuleSchema,
  CreatedAlertEndpointSchema,
} from "@/lib/control/openapi/schemas/alerts";
import { CreatedKeysSchema } from "@/lib/control/openapi/schemas/bulk";
import { DecisionSchema } from "@/lib/control/openapi/schemas/check";
import { OverrideListSchema, OverrideSchema } from "@/lib/control/openapi/operations/admin-overrides";
import type * as View from "@/packages/client/src/cli/views";

/** Inner<T>: the object a field holds, through null and lists. */
type Inner<T> = NonNullable<T> extends readonly (infer E)[] ? Inner<E> : NonNullable<T>;

type Field<At extends string, K extends string> = At extends "" ? K : `${At}.${K}`;

/** The fields (as "a.b.c") the view reads that the server's answer does not have. */
type Missing<S, V, At extends string> =
  Inner<V> extends object
    ? {
        [K in keyof Inner<V> & string]-?: K extends keyof Inner<S>
          ? Missing<Inner<S>[K], Inner<V>[K], Field<At, K>>
          : Field<At, K>;
      }[keyof Inner<V> & string]
    : never;

/** true, or what is wrong (shown by tsc where the call is listed). */
type Fits<S, V> = [S] extends [V]
  ? [Missing<S, V, "">] extends [never]
    ? true
    : { viewFieldsNotInTheSchema: Missing<S, V, ""> }
  : { schemaTypeNotAcceptedByTheView: S };

type Method = "get" | "post" | "put" | "delete";

interface Call {
  view: string;
  method: Method;
  path: string;
  status: 200 | 201;
  schema: z.ZodType;
}

/** One call of the CLI: `fits` is `true` only when the view fits the schema's answer. */
function call<V>() {
  return <S extends z.ZodType>(
    view: string,
    method: Method,
    path: string,
    status: 200 | 201,
    schema: S,
    fits: Fits<z.output<S>, V>,
  ): Call => {
    void fits;
    return { view, method, path, status, schema };
  };
}

const alerts = "/api/admin/tenants/{slug}/alerts";
const CALLS: Call[] = [
  call<View.Decision>()("Decision", "post", "/api/check", 200, DecisionSchema, true),
  call<View.StateAnswer>()("StateAnswer", "get", "/api/admin/state", 200, CounterStateSchema, true),
  call<View.ResetAnswer>()("ResetAnswer", "post", "/api/admin/reset", 200, ResetResultSchema, true),
  call<View.ImportAnswer>()("ImportAnswer", "put", "/api/admin/config", 200, ImportResultSchema, true),
  call<View.KeyList>()("KeyList", "get", "/api/admin/tenants/{slug}/keys", 200, KeyListSchema, true),
  call<View.CreatedKey>()(
    "CreatedKey",
    "post",
    "/api/admin/tenants/{slug}/keys",
    201,
    CreatedKeySchema,
    true,
  ),
  call<{ keys: View.CreatedKey[] }>()(
    "{ keys: CreatedKey[] }",
    "post",
    "/api/admin/tenants/{slug}/keys/bulk",
    201,
    CreatedKeysSchema,
    true,
  ),
  call<View.OverrideList>()("OverrideList", "get", "/api/admin/overrides", 200, OverrideListSchema, true),
  call<View.OverrideRow>()("OverrideRow", "post", "/api/admin/overrides", 201, OverrideSchema, true),
  call<View.OverrideRow>()("OverrideRow", "post", "/api/admin/overrides/{id}/end", 200, OverrideSchema, true),
  call<View.EndpointList>()("EndpointList", "get", `${alerts}/endpoints`, 200, AlertEndpointListSchema, true),
  call<View.CreatedEndpoint>()(
    "CreatedEndpoint",
    "post",
    `${alerts}/endpoints`,
    201,
    CreatedAlertEndpointSchema,
    true,
  ),
  call<View.RuleList>()("RuleList", "get", `${alerts}/rules`, 200, AlertRuleListSchema, true),
  call<View.RuleRow>()("RuleRow", "post", `${alerts}/rules`, 201, AlertRuleSchema, true),
  call<View.DeliveryList>()(
    "DeliveryList",
    "get",
    `${alerts}/deliveries`,
    200,
    AlertDeliveryListSchema,
    true,
  ),
];

// the part of an operation's answer this reads: its JSON schema, a reference to a component
const jsonAnswer = z.object({
  content: z.object({ "application/json": z.object({ schema: z.object({ $ref: z.string() }) }) }),
});

function answerRef(method: Method, path: string, status: number): string {
  const operation: unknown = openApiDocument().paths?.[path]?.[method];
  const responses = z.object({ responses: z.record(z.string(), z.unknown()) }).parse(operation).responses;
  return jsonAnswer.parse(responses[String(status)]).content["application/json"].schema.$ref;
}

describe("the CLI's views", () => {
  it.each(CALLS)("$view is the answer of $method $path ($status)", ({ method, path, status, schema }) => {
    const name = getRefId(schema);
    expect(name).toBeDefined();
    expect(answerRef(method, path, status)).toBe(`#/components/schemas/${name}`);
  });
});
