import { useEffect } from 'react';

/** The tab's title on the 404 screen, so history and bookmarks say what the page was. */
export const NOT_FOUND_TITLE = '404 Page Not Found — PlacePort';

/**
 * The screen for any path other than `/` (seed section 2). The server answers such paths with
 * HTTP 404 and this same app, so the status matches what is shown.
 */
export function NotFound() {
  useEffect(() => {
    const before = document.title;
    document.title = NOT_FOUND_TITLE;
    return () => {
      document.title = before;
    };
  }, []);

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
