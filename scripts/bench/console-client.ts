// The console bench's browser: signs in with next-auth's credentials flow and times pages.

export interface PageTime {
  /** medians over the runs */
  firstByteMs: number;
  fullMs: number;
  worstMs: number;
  bytes: number;
  status: number;
}

function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((line) => line.split(";")[0] ?? "");
}

export async function signIn(url: string, account: { email: string; password: string }): Promise<string> {
  let last = "";
  for (let attempt = 0; attempt < 5; attempt++) {
    const csrf = await fetch(`${url}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const jar = cookiesOf(csrf);
    const response = await fetch(`${url}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
      body: new URLSearchParams({ csrfToken, ...account, json: "true" }),
    });
    const session = cookiesOf(response).find((c) => c.includes("session-token="));
    if (session) return [...jar, session].join("; ");
    last = `${response.status} ${response.headers.get("location") ?? ""} ${(await response.text()).slice(0, 200)}`;
    // the login limiter fails closed while its Redis connection comes up
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`could not sign in as ${account.email}: ${last}`);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

export async function timedGet(url: string, path: string, cookie: string, runs: number): Promise<PageTime> {
  const first: number[] = [];
  const full: number[] = [];
  let bytes = 0;
  let status = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const response = await fetch(`${url}${path}`, { headers: { cookie }, redirect: "manual" });
    first.push(performance.now() - start);
    const body = await response.arrayBuffer();
    full.push(performance.now() - start);
    bytes = body.byteLength;
    status = response.status;
  }
  return { firstByteMs: median(first), fullMs: median(full), worstMs: Math.max(...full), bytes, status };
}
