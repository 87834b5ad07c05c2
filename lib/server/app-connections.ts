import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ConnectionAdmission, type Refusal } from "@/lib/check/http/front/connection-admission";

// The connections the front hands to the app process, admitted as the front admits its own
// (connection-admission.ts): a bound per client address and a cap, where at the cap the
// connection quiet longest between requests (keep-alive) is closed to make room. Every
// connection arrives with a request begun, so only one that has been answered and waits
// for its next request is idle; one with a request under way, or not yet answered its
// first, is never shed (node:http's request deadline ends the slow ones).

interface AppConnection {
  readonly socket: Socket;
  underWay: number;
  answered: number;
}

export interface AppConnectionLimits {
  maxConnections: number;
  maxPerAddress: number;
}

export class AppConnections {
  private readonly bySocket = new Map<Socket, AppConnection>();
  private readonly admission: ConnectionAdmission<AppConnection>;

  constructor(limits: AppConnectionLimits) {
    this.admission = new ConnectionAdmission<AppConnection>({
      ...limits,
      isIdle: (connection) => connection.underWay === 0 && connection.answered > 0,
      shed: (connection) => connection.socket.destroy(),
    });
  }

  /** Connections held (admitted and not yet closed). */
  get open(): number {
    return this.admission.size;
  }

  /** Takes a handed-over connection, or refuses it (it is closed at once). */
  adopt(socket: Socket): AppConnection | Refusal {
    const admitted = this.admission.admit(socket.remoteAddress ?? "", () => ({
      socket,
      underWay: 0,
      answered: 0,
    }));
    if (typeof admitted === "string") {
      socket.destroy();
      return admitted;
    }
    this.bySocket.set(socket, admitted);
    socket.once("close", () => {
      this.bySocket.delete(socket);
      this.admission.release(admitted);
    });
    return admitted;
  }

  /** A request began on one of the connections: it is busy until its response closes. */
  requestStarted(request: IncomingMessage, response: ServerResponse): void {
    const connection = this.bySocket.get(request.socket);
    if (connection === undefined) return;
    connection.underWay += 1;
    response.once("close", () => {
      connection.underWay -= 1;
      connection.answered += 1;
      this.admission.noteActivity(connection, connection.answered);
    });
  }
}
