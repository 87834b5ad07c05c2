// (a) the ceiling: a bare node:http JSON endpoint that reads and parses the POST body and
// answers a decision-sized JSON body, with no rate limiting at all. PORT from argv.
import { createServer } from "node:http";

const port = Number(process.argv[2]);
const answer = JSON.stringify({
  allowed: true,
  reason: "ok",
  tenant: "bench",
  key: "k0",
  route: "POST /v1/search",
  limit: 1000000,
  remaining: 999999,
  resetMs: 1,
  retryAfterMs: null,
  waitMs: 0,
  limits: [],
  degraded: false,
  configVersion: 1,
});

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    response.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(answer),
    });
    response.end(answer);
  });
}).listen(port, "127.0.0.1", () => console.log("ready"));
