import { PRICE_PER_PLACE_CENTS } from '@placeport/contract';
import { useApp } from '../../app/context';
import { formatUsd } from '../../lib/money';

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
          {productName} · {formatUsd(PRICE_PER_PLACE_CENTS)} per converted place · conversion runs
          in your browser
        </p>
      </div>
    </footer>
  );
}
