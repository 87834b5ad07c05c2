// What a front connection (connection.ts) does with the requests it reads, and the moves
// between those states, all here. Flow control (paused) and framing (the bytes of the request
// being read) are kept apart by the connection: they change in every state.
//
//   open         frames requests and answers them
//   lastRequest  shutting down with a request partly received: it is read and answered
//                (Connection: close), and is the last
//   closing      no request after the current ones (the client ended, asked to close, was
//                refused or timed out): once they are answered the socket ends
//   handingOff   a request node:http must serve: once the answers before it are written,
//                the socket and its unread bytes go to node:http
//
// closing and handingOff are final: a connection handing off stays so when the client ends
// or a timeout closes it (the hand-off, or the socket's destruction, ends it).

export type ConnectionState = "open" | "lastRequest" | "closing" | "handingOff";

const MOVES: Readonly<Record<ConnectionState, readonly ConnectionState[]>> = {
  open: ["lastRequest", "closing", "handingOff"],
  lastRequest: ["closing", "handingOff"],
  closing: [],
  handingOff: [],
};

/** The state after asking `from` to become `to`: `to` when that move exists, else `from`. */
export function moveState(from: ConnectionState, to: ConnectionState): ConnectionState {
  return MOVES[from].includes(to) ? to : from;
}

/** No more requests are read in this state (closing or handing off). */
export function readsNoMore(state: ConnectionState): boolean {
  return state === "closing" || state === "handingOff";
}
