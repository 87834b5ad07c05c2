import "server-only";
import { headers } from "next/headers";
import { env } from "@/lib/shared/env";

/** An absolute URL on this app for a one-time link: NEXTAUTH_URL's origin, else the Host asked for. */
export async function linkUrl(path: string): Promise<string> {
  const configured = env().NEXTAUTH_URL;
  if (configured) return new URL(path, configured).toString();
  const host = (await headers()).get("host") ?? `localhost:${env().PORT}`;
  return new URL(path, `http://${host}`).toString();
}
