import { useEffects } from '../../app/context';
import { AuthorizeButton } from './AuthorizeButton';

/** Where the card form would be when the server runs demo payments (product.md "Money"). */
export function DemoPanel({ busy }: { busy: boolean }) {
  const effects = useEffects();
  return (
    <div className="payment-form">
      <div className="demo-panel" role="note" aria-labelledby="demo-title">
        <p className="demo-title" id="demo-title">
          Demo mode — no card is charged
        </p>
        <p>
          This server runs without a card payment provider. The button below authorizes a pretend
          payment, so you can try the whole flow for free.
        </p>
      </div>
      <AuthorizeButton busy={busy} onClick={() => void effects.authorizeDemo()} />
    </div>
  );
}
