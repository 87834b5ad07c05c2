// next-auth's sign-in, sign-out, session and CSRF endpoints.
import NextAuth from "next-auth";
import { authOptions } from "@/lib/control/auth/options";

async function handler(
  request: Request,
  context: { params: Promise<{ nextauth: string[] }> },
): Promise<Response> {
  return NextAuth(authOptions())(request, context) as Promise<Response>;
}

export { handler as GET, handler as POST };
