import { Fragment } from 'react';
import { Checkbox } from 'radix-ui';
import { AlertIcon, CheckIcon, FolderIcon } from '../../components/Icons';
import { formatFileSize, formatPlaces, listDisplayName } from '../../lib/format';
import { isConvertible } from '../../state/machine';
import type { ListSummary } from '../../worker/types';
import { folderOf, placeSources } from './listFacts';

interface ListRowProps {
  list: ListSummary;
  /** Unique in the page: the prefix of the row's element ids. */
  id: string;
  checked: boolean;
  /** The list was converted earlier in this session: marked, so it is not paid for twice unawares. */
  converted: boolean;
  /** Show the folder under the name (another list has the same name). */
  showFolder: boolean;
  onToggle: () => void;
}

/**
 * One list of the selection dialog: its checkbox, named by the list (and its folder when the name
 * repeats), described by its places, size, where their coordinates come from, whether it is the
 * starred places, whether it was converted earlier in this session, and, for a list that cannot be
 * converted, why (its checkbox then disabled).
 */
export function ListRow({ list, id, checked, converted, showFolder, onToggle }: ListRowProps) {
  const convertible = isConvertible(list);
  const folder = folderOf(list);
  const sources = placeSources(list);
  const starred = list.kind === 'starred';
  const ids = {
    name: `${id}-name`,
    folder: `${id}-folder`,
    tag: `${id}-tag`,
    done: `${id}-done`,
    meta: `${id}-meta`,
    sources: `${id}-sources`,
    problem: `${id}-problem`,
  };
  const labelledBy = [ids.name, showFolder ? ids.folder : null];
  const describedBy = [
    convertible ? null : ids.problem,
    starred ? ids.tag : null,
    converted ? ids.done : null,
    ids.meta,
    sources.length === 0 ? null : ids.sources,
  ];

  return (
    <li className="list-row selection-row" data-convertible={convertible}>
      <Checkbox.Root
        id={id}
        className="checkbox"
        checked={convertible && checked}
        disabled={!convertible}
        aria-labelledby={labelledBy.filter(Boolean).join(' ')}
        aria-describedby={describedBy.filter(Boolean).join(' ')}
        onCheckedChange={onToggle}
      >
        <Checkbox.Indicator className="checkbox-indicator">
          <CheckIcon />
        </Checkbox.Indicator>
      </Checkbox.Root>
      <label htmlFor={id} className="selection-row-text">
        <span className="selection-row-heading">
          <span id={ids.name} className="list-name" dir="auto">
            {listDisplayName(list.name)}
          </span>
          {starred && (
            <span id={ids.tag} className="list-tag">
              Starred places
            </span>
          )}
          {converted && (
            <span id={ids.done} className="list-tag is-converted">
              Converted in this session
            </span>
          )}
        </span>
        {showFolder && (
          <span id={ids.folder} className="list-folder">
            <FolderIcon />
            <span className="visually-hidden">in </span>
            <span>{folder === '' ? 'the top of the archive' : folder}</span>
          </span>
        )}
        <span id={ids.meta} className="list-meta">
          {/* A retry list is no file of the archive: it has no size to show. */}
          {list.origin
            ? formatPlaces(list.rowCount)
            : `${formatPlaces(list.rowCount)} · ${formatFileSize(list.size)}`}
        </span>
        {sources.length > 0 && (
          <span id={ids.sources} className="list-sources">
            {sources.map((part, i) => (
              <Fragment key={part}>
                {/* The line may break after the separator, never inside a part. */}
                {i > 0 && <span>{'\u00a0· '}</span>}
                <span className="list-source">{part}</span>
              </Fragment>
            ))}
          </span>
        )}
        {!convertible && (
          <span className="list-problem">
            <AlertIcon />
            <span id={ids.problem}>{`Can't be converted: ${list.problem}`}</span>
          </span>
        )}
      </label>
    </li>
  );
}
