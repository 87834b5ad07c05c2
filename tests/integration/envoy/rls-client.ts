// A ShouldRateLimit client as Envoy's would be: grpc-js with the proto set of
// tests/fixtures/envoy-proto (Envoy's package, service and field numbers), talking to the
// running app's gRPC port.
import { fileURLToPath } from "node:url";
import { credentials, loadPackageDefinition, Metadata, type ServiceError } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";

export const GRPC_ADDRESS = process.env.GRPC_ADDRESS ?? "127.0.0.1:3150";
export const GRPC_ADDRESS_2 = process.env.GRPC_ADDRESS_2 ?? "127.0.0.1:3151";

const PROTO_DIR = fileURLToPath(new URL("../../fixtures/envoy-proto", import.meta.url));

export interface Entry {
  key: string;
  value: string;
}

export interface Descriptor {
  entries: Entry[];
  hits_addend?: { value: number };
  limit?: { requests_per_unit: number; unit: string };
}

export interface RlsRequest {
  domain: string;
  descriptors: Descriptor[];
  hits_addend?: number;
}

export interface Status {
  code: "UNKNOWN" | "OK" | "OVER_LIMIT";
  current_limit?: { name: string; requests_per_unit: number; unit: string };
  limit_remaining: number;
  duration_until_reset?: { seconds: number; nanos: number };
}

export interface RlsResponse {
  overall_code: "UNKNOWN" | "OK" | "OVER_LIMIT";
  statuses: Status[];
  response_headers_to_add: Array<{ key: string; value: string }>;
  request_headers_to_add: Array<{ key: string; value: string }>;
}

type Call = (
  request: RlsRequest,
  metadata: Metadata,
  done: (error: ServiceError | null, response?: RlsResponse) => void,
) => void;

interface RlsClient {
  ShouldRateLimit: Call;
  close(): void;
}

type ClientClass = new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => RlsClient;

const definition = loadSync("rls.proto", {
  includeDirs: [PROTO_DIR],
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  arrays: true,
});
const loaded = loadPackageDefinition(definition) as unknown as {
  envoy: { service: { ratelimit: { v3: { RateLimitService: ClientClass } } } };
};
const Service = loaded.envoy.service.ratelimit.v3.RateLimitService;

const clients = new Map<string, RlsClient>();

function clientFor(address: string): RlsClient {
  let client = clients.get(address);
  if (!client) clients.set(address, (client = new Service(address, credentials.createInsecure())));
  return client;
}

export function closeRlsClients(): void {
  for (const client of clients.values()) client.close();
  clients.clear();
}

export type Outcome = { ok: true; response: RlsResponse } | { ok: false; code: number; details: string };

/** One call; `headers` is the metadata sent (e.g. authorization). */
export function shouldRateLimit(
  request: RlsRequest,
  headers: Record<string, string>,
  address = GRPC_ADDRESS,
): Promise<Outcome> {
  const metadata = new Metadata();
  for (const [name, value] of Object.entries(headers)) metadata.set(name, value);
  return new Promise((resolve) => {
    clientFor(address).ShouldRateLimit(request, metadata, (error, response) => {
      if (error) resolve({ ok: false, code: error.code, details: error.details });
      else resolve({ ok: true, response: response as RlsResponse });
    });
  });
}

/** The response, failing the test on a gRPC error. */
export async function rateLimited(
  request: RlsRequest,
  headers: Record<string, string>,
  address = GRPC_ADDRESS,
): Promise<RlsResponse> {
  const outcome = await shouldRateLimit(request, headers, address);
  if (!outcome.ok) throw new Error(`gRPC error ${outcome.code}: ${outcome.details}`);
  return outcome.response;
}
