// gRPC's status codes (grpc/doc/statuscodes.md), the ones the ShouldRateLimit front answers:
// the same numbers grpc-js's `status` has, without loading grpc-js into the check front.

export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  INTERNAL: 13,
  UNIMPLEMENTED: 12,
  UNAUTHENTICATED: 16,
} as const;

export type GrpcStatus = (typeof GrpcStatus)[keyof typeof GrpcStatus];
