// A webhook receiver for trying alerts locally: prints each message and whether its
// signature checks out. Add it in the dashboard as an endpoint (operators: "Allow private
// networks: yes", it is on loopback), then pass the signing secret you were shown:
//
//   node --import tsx scripts/alert-receiver.ts [--port 4400] [--secret whsec_...]
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { verifySignature } from "../lib/control/alerts/signature";

const { values } = parseArgs({
  options: { port: { type: "string", default: "4400" }, secret: { type: "string" } },
});
const port = Number(values.port);

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    const header = String(req.headers["x-sluice-signature"] ?? "");
    const verdict = values.secret
      ? verifySignature(values.secret, header, body)
        ? "signature ok"
        : "BAD SIGNATURE"
      : "no --secret given";
    console.log(
      `${new Date().toISOString()} ${req.headers["x-sluice-event"] ?? "?"} (${verdict})\n${body}\n`,
    );
    res.writeHead(204).end();
  });
}).listen(port, "127.0.0.1", () =>
  console.log(`alert receiver on http://127.0.0.1:${port}/ (Ctrl-C stops it)`),
);
