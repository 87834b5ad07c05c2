import { connect, createServer, type AddressInfo, type Socket } from "node:net";

// A loopback TCP relay in front of a server (the test PostgreSQL), which the test can cut:
// an app pointed at it loses its database the way a network partition would (open
// connections reset, new ones refused) while the shared PostgreSQL runs on for everyone.

export interface TcpProxy {
  port: number;
  /** resets every relayed connection and stops listening */
  cut: () => Promise<void>;
}

export async function tcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  };
  const server = createServer((client) => {
    const upstream = connect(port, host);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.resetAndDestroy();
      }),
  };
}
