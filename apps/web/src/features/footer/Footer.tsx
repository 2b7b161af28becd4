import { useApp } from '../../app/context';

/** The footer with the feedback e-mail the server is configured with (seed section 1). */
export function Footer() {
  const { productName, contactEmail } = useApp((store) => store.config.value);
  return (
    <footer className="site-footer">
      <div className="container">
        <p>
          Questions or feedback? Write to <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
        </p>
        <p className="muted">
          {productName} · $0.10 per converted place · conversion runs in your browser
        </p>
      </div>
    </footer>
  );
}
