import { Checkbox, Dialog } from 'radix-ui';
import { useEffects, useSend } from '../../app/context';
import { CheckIcon } from '../../components/Icons';
import { formatFileSize, formatPlaces, listDisplayName } from '../../lib/format';
import { selectionTotals } from '../../state/selectors';
import type { Archive } from '../../state/types';

interface SelectionViewProps {
  archive: Archive;
  error: string | null;
}

/** 'Select Lists to Convert': counts, Select All / Deselect All, the checkbox list, and Proceed. */
export function SelectionView({ archive, error }: SelectionViewProps) {
  const send = useSend();
  const effects = useEffects();
  const chosen = new Set(archive.selected);
  const { places } = selectionTotals(archive);

  return (
    <>
      <Dialog.Title className="dialog-title">Select Lists to Convert</Dialog.Title>
      <Dialog.Description className="dialog-description">
        Choose the saved place lists to turn into KML files.
      </Dialog.Description>
      <div className="selection-summary">
        <p className="selection-count" aria-live="polite">
          {`${archive.selected.length} of ${archive.lists.length} lists selected`}
        </p>
        <p className="selection-places">{`${formatPlaces(places)} in total`}</p>
      </div>
      <div className="selection-actions">
        <button
          type="button"
          className="button small"
          onClick={() => send({ type: 'allListsSelected' })}
        >
          Select All
        </button>
        <button
          type="button"
          className="button small"
          onClick={() => send({ type: 'allListsDeselected' })}
        >
          Deselect All
        </button>
      </div>
      <ul className="list-picker" aria-label="Saved place lists">
        {archive.lists.map((list, index) => {
          const id = `list-${index}`;
          return (
            <li key={list.path} className="list-row">
              <Checkbox.Root
                id={id}
                className="checkbox"
                checked={chosen.has(list.path)}
                onCheckedChange={() => send({ type: 'listToggled', path: list.path })}
              >
                <Checkbox.Indicator className="checkbox-indicator">
                  <CheckIcon />
                </Checkbox.Indicator>
              </Checkbox.Root>
              <label htmlFor={id} className="list-label">
                <span className="list-name">{listDisplayName(list.name)}</span>
                <span className="list-meta">
                  {formatPlaces(list.rowCount)} · {formatFileSize(list.size)}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      {error !== null && (
        <p className="inline-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-footer">
        <button type="button" className="button" onClick={() => send({ type: 'dialogDismissed' })}>
          Cancel
        </button>
        <button
          type="button"
          className="button primary"
          disabled={archive.selected.length === 0}
          onClick={() => void effects.proceedToPayment()}
        >
          Proceed to Payment
        </button>
      </div>
    </>
  );
}
