import { beforeAll, expect } from "vitest";
import { APP_URL, call, type CallOptions, type Reply } from "../admin/http";
import { contractFixture, type ContractFixture } from "./fixtures";
import { OpenApiValidator, type OpenApiDoc } from "./openapi-validator";

// What the contract topics share: the document's validator (it records which operations
// were exercised), the fixture (tenants, keys, tokens) and `conforms`. Filled in beforeAll.

export interface Contract {
  validator: OpenApiValidator;
  f: ContractFixture;
  /** Sends the request and expects `status` and an answer the document allows. */
  conforms(operation: string, path: string, status: number, options?: CallOptions): Promise<Reply>;
}

export function contractSetup(): Contract {
  const c = {
    async conforms(operation: string, path: string, status: number, options: CallOptions = {}) {
      const method = operation.split(" ")[0] ?? "GET";
      const reply = await call(method, path, options);
      expect(
        { status: reply.status, problems: c.validator.problems(operation, reply) },
        reply.text.slice(0, 300),
      ).toEqual({ status, problems: [] });
      return reply;
    },
  } as Contract;
  beforeAll(async () => {
    const response = await fetch(`${APP_URL}/api/openapi.json`);
    c.validator = new OpenApiValidator((await response.json()) as OpenApiDoc);
    c.f = await contractFixture();
  });
  return c;
}
