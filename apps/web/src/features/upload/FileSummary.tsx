import { ArchiveIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import { formatFileSize } from '../../lib/format';
import type { FileInfo } from '../../state/types';

/** The id of Select Lists, which the selection dialog gives the focus to when it closes. */
export const SELECT_LISTS_ID = 'select-lists';

interface FileSummaryProps {
  file: FileInfo;
  /** Null while the archive is being read. */
  listCount: number | null;
  canRemove: boolean;
  onRemove: () => void;
  /**
   * Offered when the selection dialog was closed, to open it again. The dialog gives it the focus
   * as it closes (see ListDialog), since the dialog that had the focus is gone.
   */
  onSelectLists?: () => void;
}

/** The accepted file: name, size, 'ZIP archive', how many lists were found, and Remove. */
export function FileSummary({
  file,
  listCount,
  canRemove,
  onRemove,
  onSelectLists,
}: FileSummaryProps) {
  return (
    <div className="file-summary">
      <ArchiveIcon className="file-icon" />
      <div className="file-details">
        <p className="file-name">{file.name}</p>
        <p className="file-meta">
          <span>{formatFileSize(file.size)}</span>
          <span aria-hidden="true"> · </span>
          <span>ZIP archive</span>
        </p>
        {listCount === null ? (
          <Spinner label="Reading the archive…" visibleLabel />
        ) : (
          <p className="file-found">{`Found ${listCount} saved place list(s)`}</p>
        )}
      </div>
      <div className="file-actions">
        {onSelectLists && (
          <button
            type="button"
            id={SELECT_LISTS_ID}
            className="button primary"
            onClick={onSelectLists}
          >
            Select Lists
          </button>
        )}
        <button type="button" className="button" onClick={onRemove} disabled={!canRemove}>
          Remove
        </button>
      </div>
    </div>
  );
}
