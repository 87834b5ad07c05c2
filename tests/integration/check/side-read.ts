import { get } from "node:http";

// A GET on a connection of its own (agent: false), never on the pooled connections that
// fetch gives the check traffic: the front hands a connection that sends it anything but a
// check to the app process for good, so a metrics read on a pooled connection would route
// every later check on it through the app process (and its event loop, which no stall
// watch of the front sees).

export function sideRead(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}
