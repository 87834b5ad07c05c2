import type { Socket } from "node:net";
import type { HttpAnswer } from "@/lib/check/answer";
import type { FrontEndpoint, LeanRequest } from "@/lib/check/http/front/request-head";

// What a lean front's connection (connection.ts) needs from its owner: who answers the
// requests it frames (lib/enforce/http/front-handler.ts), and where a connection goes
// that it does not serve.

export interface FrontHandler {
  bodyLimit(endpoint: FrontEndpoint): number;
  /** The refusal of a request whose body is over the limit (401 or 413); the connection then closes. */
  refuse(request: LeanRequest): HttpAnswer;
  /** Answers a request with its body read; `respond` is called once, now or later. */
  serve(request: LeanRequest, body: string, respond: (answer: HttpAnswer) => void): void;
}

export interface ConnectionOptions {
  keepAliveSeconds: number;
  /** the socket, paused, with the bytes not yet read by this connection */
  handOff(socket: Socket, unread: Buffer | null): void;
}
