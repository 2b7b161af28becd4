import { AlertIcon } from '../../components/Icons';
import { errorHeading } from '../../lib/format';

/** The panel under the drop zone, headed by the seed's rule (Payment Issue / Invalid File / Error). */
export function ErrorPanel({ message }: { message: string }) {
  return (
    <div className="error-panel" role="alert">
      <AlertIcon className="error-icon" />
      <div>
        <p className="error-title">{errorHeading(message)}</p>
        <p className="error-message">{message}</p>
      </div>
    </div>
  );
}
