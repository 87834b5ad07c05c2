// What a dashboard page shows while PostgreSQL cannot be reached, instead of an error page:
// checks go on with the configuration already loaded, and the page reloads itself every
// few seconds, so it comes back on its own when the database does.

export const DATABASE_DOWN_RELOAD_SECONDS = 5;

export function DatabaseDown() {
  return (
    <>
      <meta httpEquiv="refresh" content={String(DATABASE_DOWN_RELOAD_SECONDS)} />
      <header className="shell-header">
        <span className="brand">Sluice</span>
      </header>
      <main id="main" className="shell-main">
        <div role="alert" className="notice database-down" data-testid="database-down">
          <strong>The database is unavailable.</strong> The dashboard cannot show or change the configuration
          until it is back; checks are still answered with the configuration in force. This page reloads
          itself every {DATABASE_DOWN_RELOAD_SECONDS} seconds.
        </div>
      </main>
    </>
  );
}
