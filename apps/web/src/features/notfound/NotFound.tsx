/** The screen for any path other than `/` (seed section 2). */
export function NotFound() {
  return (
    <main className="not-found">
      <div className="card not-found-card">
        <p className="not-found-code" aria-hidden="true">
          404
        </p>
        <h1>404 Page Not Found</h1>
        <p>Did you forget to add the page to the router?</p>
        <a className="button primary" href="/">
          Go to the converter
        </a>
      </div>
    </main>
  );
}
