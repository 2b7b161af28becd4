import { FORMAT_INFO } from '@placeport/converter';
import { OUTPUT_FORMATS } from '@placeport/contract';
import { useId } from 'react';
import { useEffects, useSend } from '../../app/context';
import { DownloadIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import type { StateIn } from '../../state/types';
import type { OutputFormat } from '../../worker/types';

/** The short name of a format on buttons: "KML", "GPX", "GeoJSON". */
export function formatName(format: OutputFormat): string {
  return FORMAT_INFO[format].name;
}

/**
 * Above the lists on the results: the file format every download uses (the worker writes the run's
 * files again in the format chosen), and "Download all", one ZIP of every file of the run.
 */
export function DownloadBar({ state }: { state: StateIn<'complete'> }) {
  const effects = useEffects();
  const send = useSend();
  const selectId = useId();
  const { format, formatPending, zip } = state;
  const shown = formatPending ?? format;
  const hasFiles = state.results.some((result) => result.files.length > 0 || result.failed);
  // Without a map file (nothing placed), there is no format to choose.
  const hasMaps = state.results.some((result) => result.files.length > 0);
  const zipReady = zip.kind === 'ready' && zip.format === format && formatPending === null;
  const busy = zip.kind === 'building' || formatPending !== null;

  return (
    <div className="download-bar">
      {hasMaps && (
        <div className="format-choice">
          <label htmlFor={selectId}>File format</label>
          <select
            id={selectId}
            value={shown}
            disabled={formatPending !== null}
            onChange={(event) => void effects.chooseFormat(event.target.value as OutputFormat)}
          >
            {OUTPUT_FORMATS.map((option) => (
              <option key={option} value={option}>
                {FORMAT_INFO[option].label}
              </option>
            ))}
          </select>
          {formatPending !== null && (
            <Spinner label={`Writing ${formatName(formatPending)} files…`} visibleLabel />
          )}
        </div>
      )}
      {hasFiles &&
        (zipReady ? (
          <a
            className="button primary"
            href={zip.url}
            download={zip.fileName}
            onClick={() => send({ type: 'fileDownloaded', url: zip.url })}
          >
            <DownloadIcon />
            {hasMaps ? `Download all (${formatName(format)}, ZIP)` : 'Download all (ZIP)'}
          </a>
        ) : (
          <button
            type="button"
            className="button primary"
            disabled={busy}
            onClick={() => void effects.downloadAll()}
          >
            {zip.kind === 'building' ? (
              <Spinner label="Preparing ZIP…" visibleLabel />
            ) : (
              <>
                <DownloadIcon />
                {hasMaps ? `Download all (${formatName(shown)}, ZIP)` : 'Download all (ZIP)'}
              </>
            )}
          </button>
        ))}
      {zip.kind === 'failed' && (
        <p className="zip-error" role="alert">
          {zip.message}
        </p>
      )}
    </div>
  );
}
