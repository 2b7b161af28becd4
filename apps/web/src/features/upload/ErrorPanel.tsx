import { anotherPartSentence } from '@placeport/converter/internal';
import { AlertIcon } from '../../components/Icons';
import { errorHeading } from '../../lib/format';
import { MESSAGES } from '../../state/messages';

interface ErrorPanelProps {
  message: string;
  /** The archive held no list and is this part of an export in several: the lists are in another. */
  part?: number | undefined;
  /** Which file was refused and why ({@link refusalSentence}), under the seed's message. */
  refusal?: string | undefined;
  /**
   * Given when the file was not taken (the drop zone is back): the panel then offers "Choose
   * another file", which opens the file picker again, so the way on is where the reader is.
   */
  onChooseAnother?: () => void;
}

/**
 * The panel under the drop zone, headed by the seed's rule (Payment Issue / Invalid File / Error),
 * with which file was refused and why, or the next step when the message leaves it out.
 */
export function ErrorPanel({ message, part, refusal, onChooseAnother }: ErrorPanelProps) {
  // What to do next: why this file was refused, which part holds the lists, or for the one message
  // that does not say it.
  const nextStep =
    refusal ??
    (part !== undefined
      ? anotherPartSentence(part, 'choose')
      : message === MESSAGES.noCsv
        ? MESSAGES.noCsvNextStep
        : undefined);
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
