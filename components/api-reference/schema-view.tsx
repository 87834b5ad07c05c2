import type { JsonSchema } from "@/components/api-reference/types";
import { refName } from "@/components/api-reference/types";

// A schema as a short type expression, with named schemas linking to their section.

function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  return schema.type ?? "any";
}

export function SchemaType({ schema }: { schema: JsonSchema | undefined }) {
  if (!schema) return <code>any</code>;
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return <a href={`#schema-${name}`}>{name}</a>;
  }
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants)) {
    return (
      <>
        {variants.map((variant, i) => (
          <span key={i}>
            {i > 0 && " | "}
            <SchemaType schema={variant} />
          </span>
        ))}
      </>
    );
  }
  if (schema.type === "array") {
    return (
      <>
        <SchemaType schema={schema.items as JsonSchema | undefined} />
        []
      </>
    );
  }
  return <code>{typeOf(schema)}</code>;
}

const RULES = [
  "pattern",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "format",
  "default",
];

function rulesOf(schema: JsonSchema): string {
  return RULES.filter((rule) => schema[rule] !== undefined)
    .map((rule) => `${rule}: ${JSON.stringify(schema[rule])}`)
    .join(", ");
}

/** An object's fields as a table; anything else as its type. */
export function SchemaView({ schema }: { schema: JsonSchema }) {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (schema.type !== "object" || !properties) return <SchemaType schema={schema} />;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return (
    <table>
      <thead>
        <tr>
          <th>Field</th>
          <th>Type</th>
          <th>Rules</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(properties).map(([name, field]) => (
          <tr key={name}>
            <td>
              <code>{name}</code>
              {required.has(name) ? " (required)" : ""}
            </td>
            <td>
              <SchemaType schema={field} />
              {field.description ? <div className="muted">{field.description}</div> : null}
            </td>
            <td className="muted">{rulesOf(field)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
