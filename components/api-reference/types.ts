// The parts of an OpenAPI 3.1 document the reference page reads. Loose on purpose: the
// document is ours (lib/openapi), and anything unexpected is shown as JSON.

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  [key: string]: unknown;
};

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface MediaType {
  schema?: JsonSchema;
}

export interface ResponseObject {
  description?: string;
  headers?: Record<string, { description?: string; schema?: JsonSchema }>;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
}

export interface OperationEntry {
  method: string;
  path: string;
  operation: Operation;
}

export const refName = (ref: string): string => ref.slice(ref.lastIndexOf("/") + 1);
