// Checks real answers against the OpenAPI document: the status must be declared, declared
// headers present (when required) and matching their schema, the body valid JSON Schema
// (draft 2020-12, OpenAPI 3.1's dialect) for the media type the answer carries. Also
// records which operations were exercised, so a route without a contract test fails.
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Schema = Record<string, unknown>;

interface ResponseSpec {
  headers?: Record<string, { schema?: Schema; required?: boolean }>;
  content?: Record<string, { schema?: Schema }>;
}

interface OperationSpec {
  responses: Record<string, ResponseSpec>;
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, OperationSpec>>;
  components?: Record<string, unknown>;
}

export interface RealAnswer {
  status: number;
  headers: Headers;
  text: string;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  readonly exercised = new Set<string>();

  constructor(private readonly doc: OpenApiDoc) {
    addFormats(this.ajv);
  }

  /** Every operation of the document, as "METHOD /path/{param}". */
  operations(): string[] {
    const out: string[] = [];
    for (const [path, item] of Object.entries(this.doc.paths))
      for (const method of METHODS) if (item[method]) out.push(`${method.toUpperCase()} ${path}`);
    return out;
  }

  /** The problems of one real answer to `operation` ("POST /api/check"); [] when it conforms. */
  problems(operation: string, answer: RealAnswer): string[] {
    const [method = "", path = ""] = operation.split(" ");
    const spec = this.doc.paths[path]?.[method.toLowerCase()];
    if (!spec) return [`${operation} is not in the document`];
    this.exercised.add(operation);
    const response = spec.responses[String(answer.status)] ?? spec.responses.default;
    if (!response) return [`${operation}: status ${answer.status} is not declared`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const value = answer.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`${operation} ${answer.status}: header ${name} is missing`);
        continue;
      }
      if (header.schema)
        problems.push(...this.check(`${operation} ${answer.status} header ${name}`, header.schema, value));
    }
    const content = response.content;
    if (!content) return problems;
    const type = (answer.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
    const media = content[type];
    if (!media) return [...problems, `${operation} ${answer.status}: content-type "${type}" is not declared`];
    if (!media.schema) return problems;
    let body: unknown = answer.text;
    if (type.endsWith("json")) {
      try {
        body = JSON.parse(answer.text);
      } catch {
        return [...problems, `${operation} ${answer.status}: the body is not JSON`];
      }
    }
    return [...problems, ...this.check(`${operation} ${answer.status} body`, media.schema, body)];
  }

  private check(where: string, schema: Schema, value: unknown): string[] {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      // the document's components ride along so "#/components/schemas/X" resolves
      validate = this.ajv.compile({ ...schema, components: this.doc.components ?? {} });
      this.compiled.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${where}: ${e.instancePath || "/"} ${e.message ?? "is invalid"}`,
    );
  }
}
