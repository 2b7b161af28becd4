import { useId, useRef } from 'react';

interface ListFilterProps {
  query: string;
  onQueryChange: (query: string) => void;
  /** Lists shown with the filter applied, and lists in the archive. */
  shown: number;
  total: number;
}

/** The attribute marking the filter's input, so the dialog can tell an Escape meant for it. */
const FILTER_ATTRIBUTE = 'data-list-filter';

/**
 * True when `target` is the filter box with text in it: Escape there clears the filter instead of
 * closing the dialog.
 */
export function isFilledFilter(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement &&
    target.hasAttribute(FILTER_ATTRIBUTE) &&
    target.value !== ''
  );
}

/**
 * "Filter lists": narrows the rows shown by name or folder, says how many are shown, and clears
 * with a button or Escape. It only hides rows: the selection, and Select All / Deselect All, are
 * about every list, which the hint says while rows are hidden.
 */
export function ListFilter({ query, onQueryChange, shown, total }: ListFilterProps) {
  const inputId = useId();
  const countId = useId();
  const input = useRef<HTMLInputElement>(null);
  const filtering = query.trim() !== '';

  function clear() {
    onQueryChange('');
    input.current?.focus();
  }

  return (
    <div className="list-filter">
      <label htmlFor={inputId} className="list-filter-label">
        Filter lists
      </label>
      <div className="list-filter-field">
        <input
          ref={input}
          id={inputId}
          type="search"
          className="list-filter-input"
          value={query}
          placeholder="Name or folder"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={countId}
          data-list-filter=""
          onChange={(event) => onQueryChange(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && query !== '') {
              event.preventDefault();
              clear();
            }
          }}
        />
        {query !== '' && (
          <button type="button" className="button small" aria-label="Clear filter" onClick={clear}>
            Clear
          </button>
        )}
      </div>
      <p id={countId} className="list-filter-count" aria-live="polite">
        {filtering ? `Showing ${shown} of ${total} lists` : `Showing all ${total} lists`}
      </p>
      {filtering && (
        <p className="list-filter-hint">
          {`Select All and Deselect All act on all ${total} lists, shown or not.`}
        </p>
      )}
    </div>
  );
}
