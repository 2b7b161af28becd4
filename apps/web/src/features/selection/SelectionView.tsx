import { Dialog } from 'radix-ui';
import { useEffect, useId, useRef, useState } from 'react';
import { useEffects, useSend } from '../../app/context';
import { selectedRows } from '../../state/machine';
import type { Archive } from '../../state/types';
import { FILTER_THRESHOLD, matchesFilter, pathsWithRepeatedNames } from './listFacts';
import { ListFilter } from './ListFilter';
import { ListRow } from './ListRow';
import { SelectionSummary } from './SelectionSummary';
import './selection.css';

interface SelectionViewProps {
  archive: Archive;
  error: string | null;
}

/**
 * 'Select Lists to Convert': counts and the maximum charge, Select All / Deselect All, a filter
 * when the lists are many, the checkbox list (each row saying what it holds or why it cannot be
 * converted), and Proceed.
 */
export function SelectionView({ archive, error }: SelectionViewProps) {
  const send = useSend();
  const effects = useEffects();
  const idPrefix = useId();
  const [query, setQuery] = useState('');
  const chosen = new Set(archive.selected);
  const converted = new Set(archive.converted);
  const repeated = pathsWithRepeatedNames(archive.lists);
  const filterable = archive.lists.length > FILTER_THRESHOLD;
  const rows = archive.lists
    .map((list, index) => ({ list, id: `${idPrefix}list-${index}` }))
    .filter(({ list }) => !filterable || matchesFilter(list, query));
  const picker = useRef<HTMLUListElement>(null);
  // Once, as the dialog opens: the first chosen list shown (a retry's lists come after the lists
  // converted, below the fold of a phone's dialog, where "3 of 8 lists selected" sat over none).
  useEffect(() => {
    const list = picker.current;
    const first = list?.querySelector('[data-state="checked"]')?.closest('li');
    if (!list || !first) return;
    const top = first.getBoundingClientRect().top - list.getBoundingClientRect().top;
    if (top < 0 || top + first.getBoundingClientRect().height > list.clientHeight) {
      list.scrollTop += top;
    }
  }, []);

  return (
    <>
      <Dialog.Title className="dialog-title">Select Lists to Convert</Dialog.Title>
      <Dialog.Description className="dialog-description">
        Choose the saved place lists to turn into KML files.
      </Dialog.Description>
      <SelectionSummary archive={archive} />
      <div className="selection-actions">
        {(
          [
            ['Select All', 'allListsSelected'],
            ['Deselect All', 'allListsDeselected'],
          ] as const
        ).map(([label, type]) => (
          <button key={type} type="button" className="button small" onClick={() => send({ type })}>
            {label}
          </button>
        ))}
      </div>
      {filterable && (
        <ListFilter
          query={query}
          onQueryChange={setQuery}
          shown={rows.length}
          total={archive.lists.length}
        />
      )}
      <ul ref={picker} className="list-picker" aria-label="Saved place lists">
        {rows.map(({ list, id }) => (
          <ListRow
            key={list.path}
            list={list}
            id={id}
            checked={chosen.has(list.path)}
            converted={converted.has(list.path)}
            showFolder={repeated.has(list.path)}
            onToggle={() => send({ type: 'listToggled', path: list.path })}
          />
        ))}
        {rows.length === 0 && (
          <li className="list-empty">{`No list matches “${query.trim()}”.`}</li>
        )}
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
          // Nothing chosen, or only lists that hold no place (a header alone): nothing to convert.
          disabled={selectedRows(archive) === 0}
          onClick={() => void effects.proceedToPayment()}
        >
          Proceed to Payment
        </button>
      </div>
    </>
  );
}
