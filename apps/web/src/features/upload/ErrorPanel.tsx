import { AlertIcon } from '../../components/Icons';
import { errorHeading } from '../../lib/format';
import { MESSAGES } from '../../state/messages';

interface ErrorPanelProps {
  message: string;
  /**
   * Given when the file was not taken (the drop zone is back): the panel then offers "Choose
   * another file", which opens the file picker again, so the way on is where the reader is.
   */
  onChooseAnother?: () => void;
}

/**
 * The panel under the drop zone, headed by the seed's rule (Payment Issue / Invalid File / Error),
 * with the next step when the message leaves it out.
 */
export function ErrorPanel({ message, onChooseAnother }: ErrorPanelProps) {
  // What to do next, for the one message that does not say it itself.
  const nextStep = message === MESSAGES.noCsv ? MESSAGES.noCsvNextStep : undefined;
  return (
    <div className="error-panel" role="alert">
      <AlertIcon className="error-icon" />
      <div>
        <p className="error-title">{errorHeading(message)}</p>
        <p className="error-message">{message}</p>
        {nextStep !== undefined && <p className="error-next-step">{nextStep}</p>}
        {onChooseAnother && (
          <button type="button" className="button" onClick={onChooseAnother}>
            Choose another file
          </button>
        )}
      </div>
    </div>
  );
}
