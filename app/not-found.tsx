import Link from "next/link";

// Our own 404: Next's built-in one carries an inline <style> without the CSP nonce, which
// the policy (proxy.ts) blocks.
export default function NotFound() {
  return (
    <main className="login-wrap">
      <div className="panel">
        <h1>Not found</h1>
        <p className="muted">There is nothing at this address.</p>
        <p>
          <Link href="/">Back to the dashboard</Link>
        </p>
      </div>
    </main>
  );
}
